/**
 * A running MCP task in a few words, as Pi's status line and the CLI's
 * progress lines show it while the call runs:
 * `everything · simulate-research-query: Analyzing content...` (the status is
 * named when it is not `working`, e.g. `input required: …`).
 */
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";

/** What the line shows of a task in a status snapshot. */
interface TaskShown {
  tool: string;
  status: string;
  /** The server's latest status message. */
  message?: string;
}

export function formatTaskStatus(server: string, task: TaskShown): string {
  const state = task.status === "working" ? "" : task.status.replace("_", " ");
  const message = task.message ? stripControlSequences(task.message) : "";
  const text = [state, message].filter(Boolean).join(": ") || "working";
  return `${server} · ${task.tool}: ${text}`;
}
