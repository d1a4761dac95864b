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
 * connection), or whose polls got no answer (a network drop, the server
 * restarting), is followed on the server's next connection: its result is
 * still the original call's. Only when the session ends, the server left
 * the config, or it stays out of reach does the task stay on record for a
 * later session.
 */
import type { ToolCallResult, ToolMetadata } from "@pi-mcp-adapter/core";
import {
  type CallOptions,
  type ServerConnection,
  type TaskRevision,
  TransportError,
} from "@pi-mcp-adapter/transport";
import type { FollowOptions, RunningTasks } from "../observability/running-tasks.js";

/** The task options of a tool call. */
export type TaskCallOptions = Pick<CallOptions, "taskSupport" | "onTask">;

/**
 * Follows a task by its id on the server's next connection, after `waitMs`;
 * undefined at once when there is none to follow it on (the session is
 * ending, the server is gone).
 */
export type FollowOnNextConnection = (
  taskId: string,
  revision: TaskRevision,
  options: Pick<CallOptions, "onTask">,
  waitMs: number,
) => Promise<ToolCallResult> | undefined;

/** `FollowOnNextConnection` for `tool` over `next` (the server set's connection, undefined when there is none). */
export function followOn(
  next: (server: string) => Promise<ServerConnection> | undefined,
  tool: ToolMetadata,
  options: Pick<CallOptions, "signal" | "outputSchema">,
): FollowOnNextConnection {
  return (taskId, revision, task, waitMs) => {
    const available = next(tool.server);
    if (!available) return undefined;
    available.catch(() => {}); // asked again after the wait, and that answer is the one used
    return delay(waitMs)
      .then(() => next(tool.server) ?? Promise.reject(new Error(`${tool.server} is no longer available`)))
      .then((connection) => connection.resumeTask(tool.name, taskId, revision, { ...options, ...task }));
  };
}

/**
 * How long to wait before following a cut-off task again, by how many times
 * in a row it was cut off: at once after a replaced connection, then longer
 * while the server does not answer (a network drop, a restart); past the
 * last, the call gives up and a later session follows the task.
 */
const FOLLOW_AGAIN_WAITS_MS = [0, 250, 1_000, 2_000, 4_000];

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
  /** Times in a row the task was cut off with no word from the server in between. */
  let cutOffs = 0;
  const onTask: CallOptions["onTask"] = (update) => {
    task = update;
    cutOffs = 0;
    follower?.onTask(update);
  };
  let detached = false;
  try {
    let run = call({ ...support, onTask });
    for (;;) {
      try {
        return await run;
      } catch (error) {
        // The connection closed, or lost touch with the server, and the task runs on (a remote or shared server).
        if (!(error instanceof TransportError && error.code === "task_detached")) throw error;
        const wait = FOLLOW_AGAIN_WAITS_MS[cutOffs++];
        const known = task;
        if (!known || !followAgain || wait === undefined) {
          detached = true; // a later session follows it
          throw error;
        }
        const resumed = followAgain(known.taskId, known.revision, { onTask }, wait);
        if (!resumed) {
          detached = true;
          throw error;
        }
        run = resumed;
      }
    }
  } finally {
    follower?.end(detached);
  }
}
