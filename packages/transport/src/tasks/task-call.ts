/**
 * A tool call run as an MCP task, through `@modelcontextprotocol/ext-tasks`
 * (its requester session over our port, task-port.ts): the call asks for a
 * task, ext-tasks polls it at the server's interval (and, on 2026-07-28, follows its status
 * notifications on a `subscriptions/listen` stream where the server offers them) and reads the result. Around that, this module adds what a
 * caller of `callTool` expects:
 *
 * - every status observed goes to `onTask`;
 * - `input_required` is answered: on 2026-07-28 ext-tasks hands the task's
 *   input requests to the connection's own handlers (the same dialogs as any
 *   server request); on 2025-11-25 the server queues its requests until the
 *   client calls `tasks/result`, which ext-tasks does not do before the task
 *   ends, so we call it while the task waits (task-input-drain.ts);
 * - the task's own deadline (`taskTimeoutMs`) replaces the request timeout
 *   while it runs, and stands still while the task waits for the user;
 * - the caller's abort, the deadline, or the connection closing sends
 *   `tasks/cancel`.
 *
 * Loaded on the first task call only (it carries ext-tasks).
 */
import {
  DispatchError,
  resultFromTaskOutcome,
  TaskCancelledError,
  type TaskEnabledSession,
  type TaskExecutionEvent,
  type ToolExecution,
  toolDeclaration,
  withTasks,
} from "@modelcontextprotocol/ext-tasks/client";
import { describeError, type TaskSupport, type ToolCallResult } from "@pi-mcp-adapter/core";
import { TransportError } from "../errors.js";
import type { ClientHandlers } from "../inbound/client-handlers.js";
import type { TaskRevision, TaskUpdate } from "../task-update.js";
import { TaskDeadline } from "./task-deadline.js";
import { drainTaskInput } from "./task-input-drain.js";
import { inputHandler } from "./task-input-handler.js";
import { type TaskPortParts, taskPort } from "./task-port.js";

/** A task started earlier (maybe by another process) to follow again: `ServerConnection.resumeTask`. */
export interface TaskResumeRequest
  extends Omit<TaskCallRequest, "name" | "args" | "support" | "preferTask" | "progressToken"> {
  /** The tool the task runs, for messages. */
  name: string;
  taskId: string;
  revision: TaskRevision;
}

export interface TaskCallRequest {
  name: string;
  args: Record<string, unknown>;
  /** The tool's `execution.taskSupport`, as far as known. */
  support?: TaskSupport;
  /** Ask for a task for an `optional` tool too (`tasks: "always"`). */
  preferTask: boolean;
  signal?: AbortSignal;
  progressToken?: string;
  onTask?: (update: TaskUpdate) => void;
  /** Each request's timeout (the call, every poll). */
  requestTimeoutMs: number;
  /** How long the task may run in all (`taskTimeoutMs`). */
  taskTimeoutMs: number;
}

/** Why a task call stopped waiting before its task ended. */
type StopReason = "deadline" | "closing" | "detaching" | "aborted";

export class TaskCaller {
  private readonly port: ReturnType<typeof taskPort>;
  private readonly session: TaskEnabledSession<TaskDeadline>;
  /** Running calls; `cancelAll` stops each (sending `tasks/cancel`). */
  private readonly running = new Map<AbortController, Promise<unknown>>();

  constructor(
    private readonly parts: TaskPortParts,
    handlers: ClientHandlers | undefined,
  ) {
    this.port = taskPort(parts);
    this.session = withTasks<TaskDeadline>(this.port, {
      // Declarations come with each call (from our listing or cached metadata); ext-tasks lists nothing itself.
      tools: { currentTool: () => undefined },
      onInputRequest: inputHandler(parts.server, handlers),
      onError: () => {},
    });
  }

  call(request: TaskCallRequest): Promise<ToolCallResult> {
    return this.tracked(request.signal, (stop) => this.run(request, stop));
  }

  /**
   * Follows a task by its id again (after a restart, or from another
   * session): polls it to its end and reads its result, like `call`. The
   * caller's abort cancels it on the server.
   */
  resume(request: TaskResumeRequest): Promise<ToolCallResult> {
    return this.tracked(request.signal, (stop) => this.resumeRun(request, stop));
  }

  /** Runs `start` as one of this connection's running tasks: the caller's abort stops it, closing waits for it. */
  private async tracked(
    signal: AbortSignal | undefined,
    start: (stop: AbortController) => Promise<ToolCallResult>,
  ): Promise<ToolCallResult> {
    const stop = new AbortController();
    const onAbort = () => stop.abort("aborted" satisfies StopReason);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    const run = start(stop);
    this.running.set(
      stop,
      run.catch(() => {}),
    );
    try {
      return await run;
    } finally {
      this.running.delete(stop);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Stops every running task call, sending `tasks/cancel` for each — or,
   * with `detach` (a server whose tasks outlive this connection), leaving
   * the tasks running on the server; resolves when all calls have ended.
   */
  async cancelAll(detach = false): Promise<void> {
    const calls = [...this.running];
    const reason: StopReason = detach ? "detaching" : "closing";
    for (const [stop] of calls) stop.abort(reason);
    await Promise.all(calls.map(([, ended]) => ended));
    this.port.close();
    await this.session.close().catch(() => {});
  }

  private async run(request: TaskCallRequest, stop: AbortController): Promise<ToolCallResult> {
    const { name, support } = request;
    // The task's own clock runs from the call; the input handler stops it while a question is open.
    const deadline = new TaskDeadline(request.taskTimeoutMs, () =>
      stop.abort("deadline" satisfies StopReason),
    );
    try {
      let execution: ToolExecution<unknown, TaskDeadline>;
      try {
        execution = await this.session.callTool(name, request.args as never, {
          declaration: toolDeclaration({
            name,
            inputSchema: { type: "object" },
            ...(support ? { taskSupport: support } : {}),
          }),
          task: { preference: request.preferTask ? "prefer" : "allow" },
          signal: stop.signal,
          requestTimeoutMs: request.requestTimeoutMs,
          applicationContext: deadline,
          ...(request.progressToken ? { metadata: { progressToken: request.progressToken } } : {}),
        });
      } catch (error) {
        throw this.failure(name, undefined, stop, error);
      }
      if (execution.kind === "immediate")
        return this.outcome(name, undefined, stop, (await execution.settle()).outcome);
      return await this.follow(execution, request, stop, deadline);
    } finally {
      deadline.clear();
    }
  }

  private async resumeRun(request: TaskResumeRequest, stop: AbortController): Promise<ToolCallResult> {
    const { name, taskId } = request;
    const generation = this.port.taskCapabilities.generation;
    const wanted = request.revision === "2026-07-28" ? "v2" : "v1";
    if (generation !== wanted) {
      throw new TransportError(
        "unsupported_protocol",
        this.parts.server,
        `${this.parts.server}: task ${taskId} of ${name} was started on the ${request.revision} task protocol, ` +
          `which the server no longer offers on this connection`,
      );
    }
    const deadline = new TaskDeadline(request.taskTimeoutMs, () =>
      stop.abort("deadline" satisfies StopReason),
    );
    try {
      let execution: ToolExecution<unknown, TaskDeadline>;
      try {
        execution = await this.session.resumeTask(
          { endpointId: this.port.endpointId, generation, taskId, originalOperation: "tools/call" } as never,
          { signal: stop.signal, requestTimeoutMs: request.requestTimeoutMs, applicationContext: deadline },
        );
      } catch (error) {
        throw this.failure(name, taskId, stop, error);
      }
      if (execution.kind === "immediate")
        return this.outcome(name, taskId, stop, (await execution.settle()).outcome);
      return await this.follow(execution, request, stop, deadline, false);
    } finally {
      deadline.clear();
    }
  }

  /** Follows a task to its end: reports each status, answers input on 2025-11-25, cancels when stopped. */
  private async follow(
    execution: Extract<ToolExecution<unknown, TaskDeadline>, { kind: "task" }>,
    request: Pick<TaskCallRequest, "name" | "onTask">,
    stop: AbortController,
    deadline: TaskDeadline,
    /** Tell `onTask` of the task at once (a new task); a resumed one reports what the server says first. */
    announce = true,
  ): Promise<ToolCallResult> {
    const { name } = request;
    const taskId = execution.handle.taskId;
    const revision: TaskRevision =
      this.port.taskCapabilities.generation === "v2" ? "2026-07-28" : "2025-11-25";
    let last = "";
    const report = (update: Omit<TaskUpdate, "taskId" | "revision">) => {
      // Polls that find the task unchanged (but for its timestamps) are not news.
      const key = `${update.status}\n${update.message ?? ""}`;
      if (key === last) return;
      last = key;
      try {
        request.onTask?.({ taskId, revision, ...update });
      } catch {
        // a listener's bug must not break the call
      }
    };
    if (announce) report({ status: "working" });
    // Stopped early: ask the server to cancel (ext-tasks stops its own polling already).
    let cancelled: Promise<void> | undefined;
    const cancel = () => {
      const detaching = stop.signal.reason === ("detaching" satisfies StopReason);
      cancelled = (detaching ? execution.detach() : execution.cancel()).catch(() => {});
    };
    stop.signal.addEventListener("abort", cancel, { once: true });
    if (stop.signal.aborted) cancel();
    const drain =
      this.port.taskCapabilities.generation === "v1"
        ? drainTaskInput(this.port, taskId, () => deadline.remainingMs())
        : undefined;
    // Status notifications where the server offers them (2026-07-28); polling goes on beside them.
    const listening = this.port.listenTask(taskId);
    const onEvent = (event: TaskExecutionEvent<unknown>) => {
      if (event.type !== "task") return;
      const { status, statusMessage } = event.task;
      deadline.pause(status === "input_required");
      if (status === "input_required") drain?.start();
      report({ status, ...(statusMessage ? { message: statusMessage } : {}) });
    };
    try {
      const settled = await execution.settle({ onEvent }).catch((error: unknown) => {
        // A detached execution stops settling: the task itself runs on.
        if (stop.signal.reason === ("detaching" satisfies StopReason)) throw this.stopped(name, taskId, stop);
        // A poll that got no answer (the network, a server restarting) says nothing of a task that outlives us.
        throw this.failure(name, taskId, stop, error);
      });
      const { outcome } = settled;
      if (stop.signal.aborted) {
        await cancelled;
        if (stop.signal.reason !== ("detaching" satisfies StopReason)) report({ status: "cancelled" });
        throw this.stopped(name, taskId, stop);
      }
      return this.outcome(name, taskId, stop, outcome);
    } finally {
      drain?.stop();
      void listening.then((stream) => stream?.close());
      stop.signal.removeEventListener("abort", cancel);
    }
  }

  private outcome(
    name: string,
    taskId: string | undefined,
    stop: AbortController,
    outcome: Parameters<typeof resultFromTaskOutcome>[0],
  ): ToolCallResult {
    let result: unknown;
    try {
      result = resultFromTaskOutcome(outcome);
    } catch (error) {
      throw this.failure(name, taskId, stop, error);
    }
    // The 2026-07-28 discriminator is wire-only; callers see the plain tool result.
    const { resultType: _resultType, ...lifted } = result as ToolCallResult & { resultType?: unknown };
    return lifted;
  }

  private failure(name: string, taskId: string | undefined, stop: AbortController, error: unknown): unknown {
    if (stop.signal.aborted) return this.stopped(name, taskId, stop);
    // A known task of a server that outlives us is not lost when a request of ours got no answer.
    if (taskId && this.parts.outlives && exchangeFailed(error)) {
      stop.abort("detaching" satisfies StopReason);
      return this.stopped(name, taskId, stop, describeError(error));
    }
    if (!(error instanceof Error)) return error;
    const task = taskId ? `task ${taskId}` : "the call";
    const why = error instanceof TaskCancelledError ? "the server cancelled it" : error.message;
    const code = (error as { code?: unknown }).code;
    return Object.assign(
      new Error(`${task}: ${why}`, { cause: error }),
      typeof code === "number" ? { code } : {},
    );
  }

  /** The error of a call that stopped waiting: the caller's abort, the deadline, or the connection closing (or failing: `why`). */
  private stopped(name: string, taskId: string | undefined, stop: AbortController, why?: string): Error {
    const reason = stop.signal.reason as StopReason;
    const server = this.parts.server;
    const task = taskId ? `task ${taskId}` : "its task";
    if (reason === "deadline") {
      return new TransportError(
        "request_timeout",
        server,
        `${server}: tools/call ${name}: ${task} did not finish within taskTimeoutMs; it was cancelled`,
      );
    }
    if (reason === "detaching") {
      const what = why
        ? `lost touch with the server during tools/call ${name} (${why})`
        : `connection closed during tools/call ${name}`;
      return new TransportError(
        "task_detached",
        server,
        `${server}: ${what}; ${task} keeps running on the server and is followed again when the session is resumed`,
      );
    }
    if (reason === "closing") {
      return new TransportError(
        "closed",
        server,
        `${server}: connection closed during tools/call ${name}; ${task} was cancelled`,
      );
    }
    return new DOMException(`tools/call ${name} was aborted; ${task} was cancelled`, "AbortError");
  }
}

/** Whether `error` (or one of its causes) is a request that got no answer, rather than the server's answer. */
function exchangeFailed(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    if (e instanceof DispatchError) return true;
    e = e.cause;
  }
  return false;
}
