/**
 * The CLI's status sink: while a call runs as an MCP task, each new status
 * or message of the task is one line on stderr
 * (`MCP task everything · simulate-research-query: Analyzing content...`),
 * so a long `call` shows what it waits for; stdout keeps only the result.
 */
import type { McpStatusSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { formatTaskStatus } from "../texts/task-line.js";

/** A `Host.status` that writes a line per task change with `write`. */
export function taskProgressSink(write: (line: string) => void): (snapshot: McpStatusSnapshot) => void {
  const shown = new Map<string, string>();
  return (snapshot) => {
    const running = new Set<string>();
    for (const server of snapshot.servers) {
      for (const task of server.tasks ?? []) {
        running.add(task.taskId);
        const line = `MCP task ${formatTaskStatus(server.name, task)}`;
        if (shown.get(task.taskId) === line) continue;
        shown.set(task.taskId, line);
        write(`${line}\n`);
      }
    }
    for (const taskId of shown.keys()) if (!running.has(taskId)) shown.delete(taskId);
  };
}
