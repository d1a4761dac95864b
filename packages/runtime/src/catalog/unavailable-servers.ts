/**
 * Servers whose tools could not be listed for a question, and how that is
 * said: a plain failure as `(server x unavailable: <error>)`; a server in its
 * failure backoff or still connecting in a whole sentence of its own
 * (`server "x" is unavailable (last failed 12 s ago: …)`), shown as is. Also
 * which unavailable server a tool name points at, so a call to its tool says
 * why instead of "No MCP tool named". A project server awaiting approval is
 * named in search too ("requires approval"), never left out silently.
 */
import { describeError, serverPrefix, type ToolPrefixMode } from "@pi-mcp-adapter/core";
import type { ServerStatus } from "@pi-mcp-adapter/transport";
import type { AwaitingApproval } from "../servers/server-set.js";

export interface UnavailableServer {
  server: string;
  error: string;
  /** `error` is a whole sentence that names the server; it is shown as is. */
  sentence?: true;
}

/** The entry for a listing that failed with `error` (the transport's backoff refusal is already a sentence). */
export function unavailableEntry(server: string, error: unknown): UnavailableServer {
  const sentence = (error as { code?: unknown } | undefined)?.code === "unavailable";
  return { server, error: describeError(error), ...(sentence ? { sentence: true as const } : {}) };
}

/** A server whose first listing is under way (started by an earlier question): not waited for. */
export function stillConnecting(server: string): UnavailableServer {
  return {
    server,
    error: `server "${server}" is still connecting; its tools are listed once it answers`,
    sentence: true,
  };
}

/** A failed server whose backoff is over: it is tried again in the background, not waited for. */
export function retrying(status: ServerStatus): UnavailableServer {
  const ago = Math.max(0, Math.round((status.failedAgoMs ?? 0) / 1000));
  return {
    server: status.name,
    error: `server "${status.name}" is unavailable (last failed ${ago} s ago: ${status.error ?? "unknown error"}); trying again in the background`,
    sentence: true,
  };
}

/** A project server left out until approved: search names it rather than leaving it out silently. */
export function requiresApproval(server: AwaitingApproval): UnavailableServer {
  return {
    server: server.name,
    error: `server "${server.name}" requires approval (a project server from ${server.file}; not searched): approve it with pi-mcp-adapter trust ${server.name}, then /mcp-adapter reload`,
    sentence: true,
  };
}

/** One line of search, prompt and server output for an unavailable server. */
export function unavailableLine(entry: UnavailableServer): string {
  return entry.sentence ? `(${entry.error})` : `(server ${entry.server} unavailable: ${entry.error})`;
}

/** The message of a call or describe whose tool is on an unavailable server. */
export function unavailableMessage(entry: UnavailableServer): string {
  return entry.sentence ? entry.error : `server "${entry.server}" is unavailable: ${entry.error}`;
}

/**
 * The unavailable server a tool name belongs to: the one named, else the one
 * whose prefix (`<server>_`, `mcp__<server>__`) starts the name. Servers
 * without a prefix (`toolPrefix: "none"`) are never guessed.
 */
export function ownerOf(
  name: string,
  server: string | undefined,
  unavailable: readonly UnavailableServer[],
  prefixMode: (server: string) => ToolPrefixMode,
): UnavailableServer | undefined {
  if (server !== undefined) return unavailable.find((u) => u.server === server);
  return unavailable.find((u) => prefixes(name, u.server, prefixMode(u.server)));
}

/** Whether `name` starts with `server`'s tool prefix in `mode` (never for `none`). */
export function prefixes(name: string, server: string, mode: ToolPrefixMode): boolean {
  if (mode === "none") return false;
  const prefix = serverPrefix(server, mode);
  return name.startsWith(mode === "mcp" ? `mcp__${prefix}__` : `${prefix}_`);
}
