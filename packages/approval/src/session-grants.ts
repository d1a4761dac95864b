/**
 * The session's "allow for session" answers: one tool, or a whole server.
 * Each grant remembers the server's definition hash (and a tool grant the
 * tool's fingerprint) it was given for, and covers a call only while both
 * still match: an edited server or a changed tool asks again. Grants are
 * plain data, so a host can store them with its session and restore them
 * when the session resumes or reloads.
 */

/** One "allow for session" answer, as a host stores it. */
export interface SessionGrant {
  server: string;
  /** The tool's own name; absent for "Allow this server for the session". */
  tool?: string;
  /** The server's definition hash when granted. */
  definition: string;
  /** The tool's fingerprint when granted (tool grants). */
  fingerprint?: string;
}

/** What a call is, for matching grants: its server's definition hash and its tool's fingerprint now. */
export interface GrantScope {
  definition: string;
  fingerprint?: string;
}

export class SessionGrants {
  private readonly grants = new Map<string, SessionGrant>();

  /** True when a grant of this session covers a call of `tool` on `server` as it is now. */
  covers(server: string, tool: string, scope: GrantScope): boolean {
    const serverGrant = this.grants.get(key(server));
    if (serverGrant && serverGrant.definition === scope.definition) return true;
    const toolGrant = this.grants.get(key(server, tool));
    return (
      toolGrant !== undefined &&
      toolGrant.definition === scope.definition &&
      toolGrant.fingerprint === scope.fingerprint
    );
  }

  add(grant: SessionGrant): void {
    this.grants.set(key(grant.server, grant.tool), grant);
  }

  /** Adds grants a host stored (a later grant of the same tool or server wins); malformed ones are skipped. */
  restore(grants: Iterable<unknown>): void {
    for (const grant of grants) if (isSessionGrant(grant)) this.add(grant);
  }

  list(): SessionGrant[] {
    return [...this.grants.values()];
  }

  clear(): void {
    this.grants.clear();
  }
}

function key(server: string, tool?: string): string {
  return tool === undefined ? `${server}\u0000*` : `${server}\u0000=${tool}`;
}

export function isSessionGrant(value: unknown): value is SessionGrant {
  if (typeof value !== "object" || value === null) return false;
  const grant = value as Record<string, unknown>;
  return (
    typeof grant.server === "string" &&
    typeof grant.definition === "string" &&
    (grant.tool === undefined || typeof grant.tool === "string") &&
    (grant.fingerprint === undefined || typeof grant.fingerprint === "string")
  );
}
