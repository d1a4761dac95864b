/**
 * `"search"` direct tools the model reached (our search returned them, or
 * the proxy called one), kept with Pi's session: each activation is
 * appended as a custom entry, and a session start or a `/tree` navigation
 * reads back the entries on the current branch path, so `/resume`,
 * `--continue`, branches and compaction keep what was activated there.
 * Search results in the transcript never count: only these entries do.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { appendSessionEntry, sessionEntryData } from "./session-entries.js";

/** The `customType` of the session entries naming activated tools. */
export const ACTIVATED_TOOLS_ENTRY = "pi-mcp-adapter:activated-tools";

/** What one entry holds: the direct-tool names that one proxy answer activated. */
export interface ActivatedToolsEntry {
  tools: string[];
}

/** Stores one activation with the session. */
export function recordActivatedTools(pi: Pick<ExtensionAPI, "appendEntry">, tools: readonly string[]): void {
  if (tools.length === 0) return;
  const entry: ActivatedToolsEntry = { tools: [...tools] };
  appendSessionEntry(pi, ACTIVATED_TOOLS_ENTRY, entry);
}

/** The tools activated on the session's current branch path (malformed entries are skipped). */
export function activatedOnBranch(ctx: Pick<ExtensionContext, "sessionManager">): Set<string> {
  const names = new Set<string>();
  for (const data of sessionEntryData(ctx, ACTIVATED_TOOLS_ENTRY, "current-branch")) {
    const tools = (data as Partial<ActivatedToolsEntry> | undefined)?.tools;
    if (!Array.isArray(tools)) continue;
    for (const name of tools) if (typeof name === "string") names.add(name);
  }
  return names;
}
