/**
 * `/mcp-adapter cancel-task [task id]`: cancels an MCP task this session
 * follows again after a restart (its call is gone, so Esc cannot stop it);
 * without an id, lists the running tasks with their ids. A task whose call
 * still runs is stopped with Esc, which cancels it on the server.
 */
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { AdapterSubcommand } from "./adapter-command.js";

export function taskCancelSubcommand(runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: "cancel-task",
    args: "[task id]",
    summary: "cancel an MCP task resumed after a restart (no id: list running tasks)",
    run: async (words, ctx) => {
      if (words.length > 1) {
        ctx.ui.notify("Usage: /mcp-adapter cancel-task [task id]", "warning");
        return;
      }
      const runtime = await runtimeFor(ctx);
      const running = runtime.listings
        .summaries()
        .flatMap((s) => runtime.tasks.of(s.name).map((task) => ({ server: s.name, ...task })));
      const [taskId] = words;
      if (!taskId) {
        const lines = running.map((t) => `${t.server} · ${t.tool}: ${t.taskId} (${t.status})`);
        ctx.ui.notify(lines.length ? lines.join("\n") : "No MCP tasks are running.", "info");
        return;
      }
      const task = running.find((t) => t.taskId === taskId);
      if (!task) {
        ctx.ui.notify(
          `No running MCP task has the id ${taskId}. /mcp-adapter cancel-task lists them.`,
          "warning",
        );
        return;
      }
      if (!runtime.tasks.cancel(task.server, taskId)) {
        ctx.ui.notify(
          `MCP task ${taskId} belongs to a tool call that is still running: press Esc to stop it (that cancels the task).`,
          "warning",
        );
        return;
      }
      ctx.ui.notify(`Cancelling MCP task ${taskId} (${task.server} · ${task.tool}).`, "info");
    },
  };
}
