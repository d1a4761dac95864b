/**
 * Pi's status lines for one runtime: the footer (`mcpFooterStatus`,
 * `showStatusIcon`), the line of running MCP tasks (task-status.ts), and the
 * tasks' status in their calls' rows (running-rows.ts), all following every
 * status change until the returned function turns them off.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { watchStatus } from "@pi-mcp-adapter/runtime/startup";
import type { RunningRows } from "../render/running-rows.js";
import { FOOTER_STATUS_KEY, type FooterSettings, footerText } from "./footer-status.js";
import { TASK_STATUS_KEY, taskStatusLine, taskStatusText } from "./task-status.js";

export function followStatusLines(
  runtime: AdapterRuntime,
  ctx: ExtensionContext,
  settings: () => FooterSettings,
  rows: RunningRows,
): () => void {
  const tasks = taskStatusLine((text) => ctx.ui.setStatus(TASK_STATUS_KEY, text));
  const stop = watchStatus(runtime, (s) => {
    ctx.ui.setStatus(FOOTER_STATUS_KEY, footerText(s, settings()));
    tasks(taskStatusText(s, settings()));
    rows.tasks(s);
  });
  return () => {
    stop();
    ctx.ui.setStatus(FOOTER_STATUS_KEY, undefined);
    tasks(undefined);
  };
}
