/**
 * The adapter's custom entries in Pi's session file (`pi.appendEntry`):
 * storing one, and reading them back from every branch of the session or
 * from the current branch path only (the entries from the root to the leaf
 * that `/tree` selected; entries before a compaction are on that path too).
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";

/** Appends a custom entry; a session that cannot store entries keeps the state in memory only. */
export function appendSessionEntry(
  pi: Pick<ExtensionAPI, "appendEntry">,
  customType: string,
  data: unknown,
): void {
  try {
    pi.appendEntry(customType, data);
  } catch {
    // No session to write to (Pi has not bound one): memory only.
  }
}

/** The data of the session's custom entries of `customType`, on every branch or on the current one. */
export function sessionEntryData(
  ctx: Pick<ExtensionContext, "sessionManager">,
  customType: string,
  scope: "all-branches" | "current-branch",
): unknown[] {
  try {
    const entries =
      scope === "all-branches" ? ctx.sessionManager.getEntries() : ctx.sessionManager.getBranch();
    return entries
      .filter((entry) => entry.type === "custom" && entry.customType === customType)
      .map((entry) => (entry as { data?: unknown }).data);
  } catch {
    return [];
  }
}
