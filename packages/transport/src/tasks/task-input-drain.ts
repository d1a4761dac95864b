/**
 * `input_required` on 2025-11-25: the server queues its requests (an
 * elicitation, say) until the client calls `tasks/result`, then sends them on
 * that call and answers it once the task ends. ext-tasks polls `tasks/get`
 * only until the task ends, so a task waiting for input would wait forever;
 * this calls `tasks/result` while the task waits. The queued requests reach
 * the connection's own handlers through the SDK; the answer to the call
 * itself is not needed (ext-tasks reads the result when the task ends).
 */
import type { ConnectedMcpSessionPort } from "@modelcontextprotocol/ext-tasks/client";

export interface TaskInputDrain {
  /** Calls `tasks/result` unless a call is already waiting. */
  start(): void;
  /** Ends a waiting call (the task ended, or the caller gave up). */
  stop(): void;
}

export function drainTaskInput(
  port: ConnectedMcpSessionPort,
  taskId: string,
  remainingMs: () => number,
): TaskInputDrain {
  let waiting: AbortController | undefined;
  let stopped = false;
  return {
    start() {
      if (waiting || stopped) return;
      const controller = new AbortController();
      waiting = controller;
      const request = { method: "tasks/result", params: { taskId } };
      void port
        .dispatch(request, {
          signal: controller.signal,
          context: { requestTimeoutMs: Math.max(1, remainingMs()) },
        })
        .catch(() => {})
        .finally(() => {
          if (waiting === controller) waiting = undefined;
        });
    },
    stop() {
      stopped = true;
      waiting?.abort();
      waiting = undefined;
    },
  };
}
