/**
 * Which tool calls of a connection run as MCP tasks, and the way to them.
 * A connection asks this before every `tools/call`:
 *
 * - 2025-11-25 (experimental tasks): the server must declare
 *   `tasks.requests.tools.call`; a tool whose `execution.taskSupport` is
 *   `required` then always runs as a task, an `optional` one only with
 *   `tasks: "always"`.
 * - 2026-07-28 (the Tasks extension, `io.modelcontextprotocol/tasks`): when
 *   the server advertises it, every call offers a task unless
 *   `tasks: "never"`, and the server decides per call.
 *
 * The executor (task-call.ts, with ext-tasks) loads on the first task call;
 * a connection that never runs one never loads it.
 */
import type { RemoteTool, TaskMode, TaskSupport, ToolCallResult } from "@pi-mcp-adapter/core";
import type { ClientHandlers } from "../inbound/client-handlers.js";
import { isObject } from "../is-object.js";
import { MODERN_REVISION } from "../protocol/protocol-revision.js";
import type { CallOptions } from "../remote-types.js";
import { TASKS_EXTENSION_ID, type TaskRevision } from "../task-update.js";
import type { TaskCaller, TaskCallRequest } from "./task-call.js";
import type { TaskPortParts } from "./task-port.js";

/** How a connection runs tasks: from its definition (`tasks`, `taskTimeoutMs`) and its handlers. */
export interface TaskSettings {
  mode: TaskMode;
  taskTimeoutMs: number;
  handlers?: ClientHandlers;
  clientInfo: { name: string; version: string };
  /** The client capabilities declared at connect (framed into 2026-07-28 task requests). */
  clientCapabilities: object;
}

export class TaskRouting {
  /** `execution.taskSupport` of the tools this connection listed. */
  private readonly support = new Map<string, TaskSupport>();
  private caller: Promise<TaskCaller> | undefined;

  constructor(
    private readonly parts: Omit<TaskPortParts, "clientInfo" | "clientCapabilities">,
    private readonly settings: TaskSettings,
  ) {}

  /** Remembers the tools' `taskSupport` from a listing. */
  learn(tools: readonly RemoteTool[]): void {
    for (const tool of tools) {
      const support = tool.execution?.taskSupport;
      if (support) this.support.set(tool.name, support);
      else this.support.delete(tool.name);
    }
  }

  /** Whether `tools/call` of `name` goes the task way (see the module comment). */
  wants(name: string, options: CallOptions): boolean {
    const { client } = this.parts;
    const capabilities = client.serverCapabilities() ?? {};
    const { mode } = this.settings;
    if (client.protocolVersion() === MODERN_REVISION) {
      const extension = (capabilities.extensions as Record<string, unknown> | undefined)?.[
        TASKS_EXTENSION_ID
      ];
      return mode !== "never" && client.rawRequest !== undefined && isObject(extension);
    }
    const tasks = capabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
    if (tasks?.requests?.tools?.call === undefined) return false;
    const support = options.taskSupport ?? this.support.get(name);
    return support === "required" || (support === "optional" && mode === "always");
  }

  /** Runs the call through the task executor. */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions & { requestTimeoutMs: number; progressToken?: string },
  ): Promise<ToolCallResult> {
    const request: TaskCallRequest = {
      name,
      args,
      support: options.taskSupport ?? this.support.get(name),
      preferTask: this.settings.mode === "always",
      signal: options.signal,
      progressToken: options.progressToken,
      onTask: options.onTask,
      requestTimeoutMs: options.requestTimeoutMs,
      taskTimeoutMs: this.settings.taskTimeoutMs,
    };
    return (await this.executor()).call(request);
  }

  /** Follows a task started earlier by its id (`ServerConnection.resumeTask`). */
  async resume(
    name: string,
    taskId: string,
    revision: TaskRevision,
    options: CallOptions & { requestTimeoutMs: number },
  ): Promise<ToolCallResult> {
    return (await this.executor()).resume({
      name,
      taskId,
      revision,
      signal: options.signal,
      onTask: options.onTask,
      requestTimeoutMs: options.requestTimeoutMs,
      taskTimeoutMs: this.settings.taskTimeoutMs,
    });
  }

  /**
   * Cancels the tasks still running (the connection is closing) — or leaves
   * them running, by default on a server whose tasks outlive the connection
   * (`outlives`); resolves once their calls have ended.
   */
  async cancelAll(detach = this.parts.outlives === true): Promise<void> {
    const caller = this.caller;
    this.caller = undefined;
    await (await caller?.catch(() => undefined))?.cancelAll(detach);
  }

  private executor(): Promise<TaskCaller> {
    this.caller ??= import("./task-call.js").then(
      ({ TaskCaller }) =>
        new TaskCaller(
          {
            ...this.parts,
            clientInfo: this.settings.clientInfo,
            clientCapabilities: this.settings.clientCapabilities,
          },
          this.settings.handlers,
        ),
    );
    return this.caller;
  }
}
