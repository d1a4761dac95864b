/**
 * Remembers which project server definitions the user approved. An approval
 * is keyed by the project directory, the server name and the definition hash,
 * so an edited definition needs approval again. The file is shared by every
 * Pi session of the user: an approval is a locked read-modify-write (core's
 * `withFileLock`, re-read, merge, atomic write), so concurrent approvals all
 * land.
 */
import path from "node:path";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import { ConfigError } from "../errors.js";
import { readJsonFile } from "../files/read-json-file.js";

export interface ProjectServerKey {
  /** Absolute project directory. */
  project: string;
  server: string;
  /** `definitionHash()` of the effective definition. */
  hash: string;
}

/**
 * Implementations may throw from `approve` (e.g. a read-only disk), with a
 * message naming the file and the reason; `isApproved` should not.
 */
export interface ApprovalStore {
  isApproved(key: ProjectServerKey): Promise<boolean>;
  approve(key: ProjectServerKey): Promise<void>;
}

/** The approvals file: `{ version: 1, approvals: [{ project, server, hash, approvedAt }] }`. */
export interface ApprovalFile {
  version: 1;
  approvals: { project: string; server: string; hash: string; approvedAt: string }[];
}

/**
 * The file's approvals, or none when it is not of that shape (checked by hand: the file is read on a host's
 * start path, where zod is not loaded); each entry's other keys are dropped.
 */
function approvalFileOf(value: unknown): ApprovalFile {
  const none: ApprovalFile = { version: 1, approvals: [] };
  const file = value as { version?: unknown; approvals?: unknown } | null;
  if (typeof file !== "object" || file === null || file.version !== 1 || !Array.isArray(file.approvals))
    return none;
  const approvals: ApprovalFile["approvals"] = [];
  for (let i = 0; i < file.approvals.length; i++) {
    const entry = file.approvals[i] as Record<string, unknown> | null;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return none;
    const { project, server, hash, approvedAt } = entry;
    if (typeof project !== "string" || typeof server !== "string" || typeof hash !== "string") return none;
    if (typeof approvedAt !== "string") return none;
    approvals.push({ project, server, hash, approvedAt });
  }
  return { version: 1, approvals };
}

export const APPROVALS_FILE = "mcp-adapter-approvals.json";

/** The default store: `<agent dir>/mcp-adapter-approvals.json`, written under its lock and atomically. */
export function createFileApprovalStore(file: string, now: () => Date = () => new Date()): ApprovalStore {
  const load = async (): Promise<ApprovalFile> => {
    const read = await readJsonFile(file);
    return read.kind === "ok" ? approvalFileOf(read.value) : { version: 1, approvals: [] };
  };
  const same = (a: ProjectServerKey, b: ProjectServerKey) =>
    path.resolve(a.project) === path.resolve(b.project) && a.server === b.server && a.hash === b.hash;
  return {
    async isApproved(key) {
      return (await load()).approvals.some((entry) => same(entry, key));
    },
    async approve(key) {
      await withFileLock(file, async () => {
        const data = await load();
        // One approval per project and server: approving a new definition replaces the old one.
        data.approvals = data.approvals.filter(
          (entry) =>
            !(path.resolve(entry.project) === path.resolve(key.project) && entry.server === key.server),
        );
        data.approvals.push({ ...key, project: path.resolve(key.project), approvedAt: now().toISOString() });
        await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      }).catch((error: unknown) => {
        throw new ConfigError("write_failed", `Could not save the approval in ${file}: ${reasonOf(error)}`, {
          cause: error,
        });
      });
    },
  };
}

/** A store that keeps approvals in memory only (tests, isolated SDK use). */
export function createMemoryApprovalStore(): ApprovalStore {
  const approved = new Set<string>();
  const id = (key: ProjectServerKey) => JSON.stringify([path.resolve(key.project), key.server, key.hash]);
  return {
    async isApproved(key) {
      return approved.has(id(key));
    },
    async approve(key) {
      approved.add(id(key));
    },
  };
}

/** The file system's code and message (`EISDIR: illegal operation on a directory, rename …`), or the error's message. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
