/**
 * How status screens name a server's sharing: `shared (2 sessions)` while its
 * process is shared through the daemon, or the reason it is not
 * (`not shared: …`); nothing for servers that were not asked to share.
 */
import type { SharedState } from "@pi-mcp-adapter/transport";

export function sharedLabel(shared: SharedState | undefined): string | undefined {
  if (!shared) return undefined;
  if ("reason" in shared) return shared.reason;
  return `shared (${shared.sessions} session${shared.sessions === 1 ? "" : "s"})`;
}
