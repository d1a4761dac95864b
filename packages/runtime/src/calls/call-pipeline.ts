/**
 * The one path every MCP operation takes, whatever its kind (tool, resource,
 * resource template, prompt) and whoever asks (proxy tool, CLI, direct
 * tools, mcpScript): ordered stages
 *
 *   approval → invoke → output guard → observers
 *
 * and one result type, `CallResult`, out of it. Approval may refuse (the
 * server is never asked; the refusal is the result). Invoke sends the
 * request (`call-target.ts`), showing the server's progress through the host
 * (`call-progress.ts`); its errors propagate to the host. The output
 * guard bounds what the model reads. Observers see every call's record.
 * One pipeline per runtime (per session); `dispose()` at session end
 * removes the session's binary result files (spill files stay: see
 * `settings.spillMaxAgeDays`).
 */
import { type ApprovalGate, type ApproveToolsSetting, formatApprovalRefusal } from "@pi-mcp-adapter/approval";
import type { PinToolsSetting, ToolCallResult } from "@pi-mcp-adapter/core";
import {
  createOutputGuard,
  type OutputGuard,
  type OutputGuardSetting,
  type ToonEncodeSetting,
} from "@pi-mcp-adapter/output-guard";
import { type ServerConnection, TransportError } from "@pi-mcp-adapter/transport";
import { type UrlElicitation, urlElicitationsOf } from "../client-features/elicitation-flow.js";
import { toolChangeWarning } from "../format/tool-changes.js";
import {
  type CallObserver,
  type CallOrigin,
  type CallOutcome,
  type CallRecord,
  ObserverList,
} from "../observability/call-observers.js";
import type { RunningTasks } from "../observability/running-tasks.js";
import { ApprovalStage, type ApprovalStageOptions } from "./approval-stage.js";
import {
  type CallProgress,
  callProgress,
  type ProgressClock,
  type ProgressSink,
  type ProgressUpdate,
} from "./call-progress.js";
import type { CallResult } from "./call-result.js";
import { type CallTarget, callName, invokeTarget, kindOf, serverOf } from "./call-target.js";
import { repairJsonStringArguments, repairNote } from "./repair-arguments.js";

/** The settings every call obeys. */
export interface CallSettings {
  /** `settings.approveTools`; a server's own `approveTools` wins. */
  approveTools?: ApproveToolsSetting;
  /** `settings.outputGuard`. */
  outputGuard?: OutputGuardSetting;
  /** `settings.toonEncode`. */
  toonEncode?: ToonEncodeSetting;
  /** Read for `MCP_OUTPUT_GUARD`; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** `settings.elicitation`: `false` keeps `-32042` URL-required errors from opening a dialog. */
  elicitation?: boolean;
  /** `settings.pinTools`: changed tools are reported; `enforce` (default) gates changed direct or gated ones. */
  pinTools?: PinToolsSetting;
  /** `settings.spillMaxAgeDays`: spill files older than this are removed when the pipeline starts. */
  spillMaxAgeDays?: number;
}

/** The approval stage's options (broker bus, dialog, pins, grants: see `approval-stage.ts`), then the rest. */
export interface CallPipelineOptions extends CallSettings, Omit<ApprovalStageOptions, "approveTools"> {
  /** The connection serving `server` (connecting it on first use). */
  connection: (server: string) => Promise<ServerConnection>;
  /** The server's open connection, if it has one now (never connects): a call on it skips a wait. */
  openConnection?: (server: string) => ServerConnection | undefined;
  /** Where tool calls that run as MCP tasks are listed while they run. */
  tasks?: RunningTasks;
  /**
   * The server's connection after the one a running task was cut off from
   * (a reconnect or reload replaced it): the task is followed there. Undefined
   * when the session is ending or the server left the config; left out, such a
   * task's call fails and the task is left for a later session.
   */
  nextConnection?: (server: string) => Promise<ServerConnection> | undefined;
  /** Shows the progress of running calls (`Host.progress`); left out, progress is not shown. */
  progress?: ProgressSink;
  /** The clock of the progress throttle; default the real one. */
  progressClock?: ProgressClock;
  /**
   * A `-32042` (URL elicitation required) error from the server: runs the URL
   * flow and returns what the model reads instead. Without it the error propagates.
   */
  urlElicitationRequired?: (
    server: string,
    name: string,
    elicitations: UrlElicitation[],
    signal?: AbortSignal,
  ) => Promise<string>;
}

export interface CallRequest {
  target: CallTarget;
  args: Record<string, unknown>;
  /** Which call path asks; default `proxy`. */
  origin?: CallOrigin;
  signal?: AbortSignal;
  /** Put the raw MCP result (bounded) into `details` (proxy calls; direct tools leave it out). */
  details?: boolean;
  /**
   * A tool's result as the server sent it, not guarded, in `details.mcpResult`
   * (`content` then holds only the pipeline's own notes): for a caller that
   * bounds it itself (mcpScript, by its transfer budget). Other targets are guarded as usual.
   */
  raw?: boolean;
  /** The host's id of the model's tool call (Pi's `toolCallId`): kept with a task the call starts. */
  callId?: string;
}

export class CallPipeline {
  private readonly approval: ApprovalStage;
  private readonly output: OutputGuard;
  private readonly observers = new ObserverList();

  constructor(private readonly options: CallPipelineOptions) {
    this.approval = new ApprovalStage(options);
    this.output = createOutputGuard({
      setting: options.outputGuard,
      toonEncode: options.toonEncode,
      env: options.env,
      spillMaxAgeDays: options.spillMaxAgeDays,
    });
  }

  /** The approval gate: its session grants can be listed and restored. */
  get gate(): ApprovalGate {
    return this.approval.gate;
  }

  /** Adds an observer (see `call-observers.ts` for the contract); returns the function that removes it. */
  observe(observer: CallObserver): () => void {
    return this.observers.add(observer);
  }

  /** Observer calls that threw or rejected, since the runtime started. */
  get observerFailures(): number {
    return this.observers.failures;
  }

  async run(request: CallRequest): Promise<CallResult> {
    const { target, signal } = request;
    // Stage 0: a tool's object or array arguments sent as JSON text are parsed once (repair-arguments.ts).
    const repair =
      target.kind === "tool" && target.tool.kind === "tool"
        ? repairJsonStringArguments(target.tool.inputSchema, request.args)
        : undefined;
    const args = repair?.args ?? request.args;
    const started = performance.now();
    const kind = kindOf(target);
    const server = serverOf(target);
    const origin = request.origin ?? "proxy";
    let name = target.kind === "tool" ? target.tool.name : "";
    let resultBytes: number | undefined;
    const record = (outcome: CallOutcome, errorCode?: string) => {
      if (this.observers.size === 0) return;
      const entry: CallRecord = {
        server,
        name,
        kind,
        origin,
        argsBytes: argsBytes(args),
        ...(resultBytes !== undefined ? { resultBytes } : {}),
        durationMs: performance.now() - started,
        outcome,
        ...(errorCode !== undefined ? { errorCode } : {}),
      };
      this.observers.notify(entry);
    };
    try {
      name = callName(target, args);
      // Stage 1: approval.
      const { verdict, call, unaccepted } = await this.approval.check(target, name, args, origin, signal);
      if (!verdict.allowed) {
        record("refused", verdict.code);
        return {
          content: [{ type: "text", text: formatApprovalRefusal(verdict, call) }],
          isError: true,
          details: { server, name, kind, approval: verdict.code },
        };
      }
      // Stage 2: invoke.
      let raw: ToolCallResult;
      try {
        raw = await this.invoke(server, target, name, args, signal, request.callId);
      } catch (error) {
        const elicitations = this.options.urlElicitationRequired ? urlElicitationsOf(error) : undefined;
        if (!elicitations || !this.options.urlElicitationRequired) throw error;
        // Not a failure of the call path: the server needs a browser step, then the model retries.
        const text = await this.options.urlElicitationRequired(server, name, elicitations, signal);
        record("error", "url_elicitation_required");
        return {
          content: [{ type: "text", text }],
          isError: true,
          details: { server, name, kind, error: "url_elicitation_required" },
        };
      }
      if (this.observers.size > 0) resultBytes = jsonBytes(raw);
      // A changed tool that ran without the user accepting the change: the model reads a warning first.
      const warning = unaccepted ? toolChangeWarning(server, unaccepted) : undefined;
      const notes = [
        ...(warning ? [warning] : []),
        ...(repair?.repaired.length ? [repairNote(repair.repaired)] : []),
      ].map((text) => ({ type: "text" as const, text }));
      if (request.raw && kind === "tool") {
        const isError = raw.isError === true;
        record(isError ? "error" : "ok", isError ? "tool_error" : undefined);
        return { content: notes, isError, details: { server, name, kind, mcpResult: raw } };
      }
      // Stage 3: output guard.
      const guarded = await this.output.guard(raw, { server, tool: name, details: request.details === true });
      const result: CallResult = {
        content: notes.length ? [...notes, ...guarded.content] : guarded.content,
        isError: guarded.isError,
        ...(guarded.structuredContent !== undefined ? { structuredContent: guarded.structuredContent } : {}),
        details: { server, name, kind, ...guarded.details },
      };
      // Stage 4: observers.
      record(result.isError ? "error" : "ok", result.isError ? "tool_error" : undefined);
      return result;
    } catch (error) {
      record("failed", errorCode(error));
      throw error;
    }
  }

  /**
   * Stage 2's request, the server's progress shown through the host while it
   * runs. A request that never left (its connection ended first, e.g. a
   * shared server's daemon died) goes once more on a new connection: it
   * cannot run twice.
   */
  private async invoke(
    server: string,
    target: CallTarget,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
    callId: string | undefined,
  ): Promise<ToolCallResult> {
    const sink = this.options.progress;
    // Made at the first progress the server sends: most calls report none.
    let progress: CallProgress | undefined;
    const onProgress = (update: ProgressUpdate) => {
      progress ??= callProgress(sink as ProgressSink, server, name, this.options.progressClock);
      progress.report(update);
    };
    const { nextConnection } = this.options;
    const options = { signal, callId, nextConnection, ...(sink ? { onProgress } : {}) };
    const tasks = this.options.tasks;
    const send = (): Promise<ToolCallResult> => {
      const open = this.options.openConnection?.(server);
      if (open) return invokeTarget(open, target, name, args, options, tasks);
      return this.options.connection(server).then((c) => invokeTarget(c, target, name, args, options, tasks));
    };
    try {
      return await send();
    } catch (error) {
      if (error instanceof TransportError && error.notSent) return await send();
      throw error;
    } finally {
      progress?.end();
    }
  }

  /** Bounds a result that did not come from a server call (an mcpScript's output) like any call's. */
  async guard(raw: ToolCallResult, context: { server: string; tool: string }): Promise<CallResult> {
    const guarded = await this.output.guard(raw, { ...context, details: false });
    return {
      content: guarded.content,
      isError: guarded.isError,
      details: { server: context.server, name: context.tool, kind: "tool", ...guarded.details },
    };
  }

  /** Removes this session's binary result files and spill files. */
  dispose(): Promise<void> {
    return this.output.dispose();
  }
}

function argsBytes(args: Record<string, unknown>): number {
  return jsonBytes(args);
}

function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? "");
  } catch {
    return 0;
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : "internal";
}
