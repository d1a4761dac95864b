/**
 * The running MCP tasks in Pi's status line (`ctx.ui.setStatus`), beside the
 * adapter's footer entry: while a tool call runs as a task, the line shows
 * the server, the tool and the server's latest status message, e.g.
 * `MCP task everything · simulate-research-query: Analyzing content...`
 * (`+1 more` when several run). It follows the status snapshots, which come
 * after every change of a task; `mcpFooterStatus: "off"` hides it too.
 */
import type { McpStatusSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { formatTaskStatus } from "../../texts/task-line.js";
import type { FooterSettings } from "./footer-status.js";

/** The key of the task line in Pi's status line. */
export const TASK_STATUS_KEY = "pi-mcp-adapter-tasks";

/** The task line for `snapshot`, or `undefined` (no entry) when no task runs or the footer is off. */
export function taskStatusText(
  snapshot: McpStatusSnapshot,
  settings: FooterSettings = {},
): string | undefined {
  if (settings.mcpFooterStatus === "off") return undefined;
  const running = snapshot.servers.flatMap((s) => (s.tasks ?? []).map((task) => ({ server: s.name, task })));
  const [first] = running;
  if (!first) return undefined;
  const more = running.length > 1 ? ` (+${running.length - 1} more)` : "";
  return `MCP task ${formatTaskStatus(first.server, first.task)}${more}`;
}

/** Sets the task line only when its text changes (every set is a message in RPC mode). */
export function taskStatusLine(set: (text: string | undefined) => void): (text: string | undefined) => void {
  let shown: string | undefined;
  return (text) => {
    if (text === shown) return;
    shown = text;
    set(text);
  };
}
