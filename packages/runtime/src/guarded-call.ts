/**
 * The one path every MCP call takes: the approval gate before the call, the
 * output guard after it. One per runtime (per session); `dispose()` at
 * session end removes the session's binary result files.
 */
import {
  type ApprovalDialog,
  type ApprovalEventBus,
  ApprovalGate,
  type ApprovalOrigin,
  type ApproveToolsSetting,
  formatApprovalRefusal,
} from "@pi-mcp-adapter/approval";
import type { ToolCallResult, ToolMetadata } from "@pi-mcp-adapter/core";
import {
  createOutputGuard,
  type HostContent,
  type OutputGuard,
  type OutputGuardSetting,
  type ToonEncodeSetting,
} from "@pi-mcp-adapter/output-guard";

export interface CallGuardOptions {
  /** `settings.approveTools`; a server's own `approveTools` wins. */
  approveTools?: ApproveToolsSetting;
  /** `settings.outputGuard`. */
  outputGuard?: OutputGuardSetting;
  /** `settings.toonEncode`. */
  toonEncode?: ToonEncodeSetting;
  /** The host's event bus for the approval broker (Pi: `pi.events`). */
  events?: ApprovalEventBus;
  /** Asks the user; leave out in headless sessions (calls needing approval then fail closed). */
  approvalDialog?: ApprovalDialog;
  /** Read for `MCP_OUTPUT_GUARD`; default `process.env`. */
  env?: Record<string, string | undefined>;
}

export interface GuardedCallOptions {
  signal?: AbortSignal;
  /** Which call path asks (shown to approval brokers); default `proxy`. */
  origin?: ApprovalOrigin;
  /** Bound the raw result into `details.mcpResult` (proxy calls; direct tools leave it out). */
  details?: boolean;
}

export interface GuardedCallResult {
  content: HostContent[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
  /** `mcpResult` (or its summary and file) when asked for; `approval` when the call was refused. */
  details?: Record<string, unknown>;
}

export class CallGuard {
  readonly approval: ApprovalGate;
  readonly output: OutputGuard;

  constructor(
    options: CallGuardOptions,
    serverApproveTools: (server: string) => ApproveToolsSetting | undefined,
  ) {
    this.approval = new ApprovalGate({
      approveTools: options.approveTools,
      serverApproveTools,
      events: options.events,
      dialog: options.approvalDialog,
    });
    this.output = createOutputGuard({
      setting: options.outputGuard,
      toonEncode: options.toonEncode,
      env: options.env,
    });
  }

  async run(
    tool: ToolMetadata,
    args: Record<string, unknown>,
    options: GuardedCallOptions,
    invoke: () => Promise<ToolCallResult>,
  ): Promise<GuardedCallResult> {
    const call = {
      serverName: tool.server,
      tool,
      args,
      origin: options.origin ?? "proxy",
      signal: options.signal,
    };
    const outcome = await this.approval.check(call);
    if (!outcome.allowed) {
      return {
        content: [{ type: "text", text: formatApprovalRefusal(outcome, call) }],
        isError: true,
        details: { approval: outcome.code },
      };
    }
    const guarded = await this.output.guard(await invoke(), {
      server: tool.server,
      tool: tool.name,
      details: options.details === true,
    });
    return {
      content: guarded.content,
      isError: guarded.isError,
      ...(guarded.structuredContent !== undefined ? { structuredContent: guarded.structuredContent } : {}),
      ...(guarded.details ? { details: guarded.details as Record<string, unknown> } : {}),
    };
  }

  /** Removes this session's binary result files. */
  dispose(): Promise<void> {
    return this.output.dispose();
  }
}
