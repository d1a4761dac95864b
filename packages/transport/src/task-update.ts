/**
 * What a caller hears of a tool call that runs as an MCP task (see
 * task-routing.ts): the task's id and each status the client observes, in
 * neutral shapes for both protocol generations.
 */

/** A task's status: `working` and `input_required` while it runs, then one of the three ends. */
export type TaskState = "working" | "input_required" | "completed" | "failed" | "cancelled";

export interface TaskUpdate {
  /** The server's id of the task. */
  taskId: string;
  status: TaskState;
  /** The server's `statusMessage` (e.g. "Analyzing content…"), or the last progress message. */
  message?: string;
  /**
   * Which task protocol carries it: `2025-11-25` (experimental tasks) or
   * `2026-07-28` (the Tasks extension). A task is resumed on the same one.
   */
  revision: TaskRevision;
}

/** The task protocols this client speaks. */
export type TaskRevision = "2025-11-25" | "2026-07-28";

/** Default of `taskTimeoutMs`: a task may run 30 minutes in all. */
export const DEFAULT_TASK_TIMEOUT_MS = 30 * 60_000;

/** The id of the Tasks extension on 2026-07-28 (`capabilities.extensions`). */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";
