/**
 * The task side of a tool call in the pipeline's invoke stage. Whether a call
 * runs as an MCP task is the transport's decision (the tool's `taskSupport`,
 * the server's `tasks` mode, what the server declared); the pipeline hands it
 * the tool's `taskSupport` from the (possibly cached) metadata, so a call
 * made before the server was listed in this session still runs as a task,
 * and follows the task while it runs (observability/running-tasks.ts), so status
 * screens show it and it is on record (with the model's call id and whether it
 * can outlive this process) for a later process to follow again. To the rest of the pipeline a task is a call whose result
 * arrives later: approval before, the output guard and observers after.
 *
 * A task whose connection is replaced while it runs (a reconnect, a reload
 * that redefines its server, a health check that closed a silent
 * connection) is followed on the next connection at once: its result is
 * still the original call's. Only when the session ends (or the server left
 * the config) does the task stay on record for a later session.
 */
import type { ToolCallResult, ToolMetadata } from "@pi-mcp-adapter/core";
import { type CallOptions, type TaskRevision, TransportError } from "@pi-mcp-adapter/transport";
import type { FollowOptions, RunningTasks } from "../observability/running-tasks.js";

/** The task options of a tool call. */
export type TaskCallOptions = Pick<CallOptions, "taskSupport" | "onTask">;

/**
 * Follows a task by its id on the server's next connection; undefined when
 * there is none to follow it on (the session is ending, the server is gone).
 */
export type FollowOnNextConnection = (
  taskId: string,
  revision: TaskRevision,
  options: Pick<CallOptions, "onTask">,
) => Promise<ToolCallResult> | undefined;

/** Runs `call` with the task options of `tool`, listed in `tasks` (and on record) while its task runs. */
export async function callFollowingTask(
  tasks: RunningTasks | undefined,
  tool: ToolMetadata,
  origin: Pick<FollowOptions, "callId" | "durable">,
  call: (options: TaskCallOptions) => Promise<ToolCallResult>,
  followAgain?: FollowOnNextConnection,
): Promise<ToolCallResult> {
  const support = tool.taskSupport ? { taskSupport: tool.taskSupport } : {};
  if (!tasks && !followAgain) return call(support);
  const follower = tasks?.follow(tool.server, tool.name, origin);
  let task: { taskId: string; revision: TaskRevision } | undefined;
  const onTask: CallOptions["onTask"] = (update) => {
    task = update;
    follower?.onTask(update);
  };
  let detached = false;
  try {
    let run = call({ ...support, onTask });
    for (;;) {
      try {
        return await run;
      } catch (error) {
        // The connection closed and the task runs on (a remote or shared server).
        if (!(error instanceof TransportError && error.code === "task_detached")) throw error;
        const next = task && followAgain?.(task.taskId, task.revision, { onTask });
        if (!next) {
          detached = true; // a later session follows it
          throw error;
        }
        run = next;
      }
    }
  } finally {
    follower?.end(detached);
  }
}
