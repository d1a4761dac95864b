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
 */
import type { ToolCallResult, ToolMetadata } from "@pi-mcp-adapter/core";
import { type CallOptions, TransportError } from "@pi-mcp-adapter/transport";
import type { FollowOptions, RunningTasks } from "../observability/running-tasks.js";

/** The task options of a tool call. */
export type TaskCallOptions = Pick<CallOptions, "taskSupport" | "onTask">;

/** Runs `call` with the task options of `tool`, listed in `tasks` (and on record) while its task runs. */
export async function callFollowingTask(
  tasks: RunningTasks | undefined,
  tool: ToolMetadata,
  origin: Pick<FollowOptions, "callId" | "durable">,
  call: (options: TaskCallOptions) => Promise<ToolCallResult>,
): Promise<ToolCallResult> {
  const support = tool.taskSupport ? { taskSupport: tool.taskSupport } : {};
  if (!tasks) return call(support);
  const follower = tasks.follow(tool.server, tool.name, origin);
  let detached = false;
  try {
    return await call({ ...support, onTask: (update) => follower.onTask(update) });
  } catch (error) {
    // The connection closed and the task runs on (a remote or shared server): a later session follows it.
    detached = error instanceof TransportError && error.code === "task_detached";
    throw error;
  } finally {
    follower.end(detached);
  }
}
