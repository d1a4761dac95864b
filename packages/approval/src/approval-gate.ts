/**
 * Decides whether one MCP call may run: a session approval, then the broker
 * event, then the `approveTools` policy with a dialog (or, without a UI, a
 * fail-closed `approval_required`). One gate per session; its "Allow for
 * session" memory lives only in memory.
 */
import type { ApproveToolsSetting } from "@pi-mcp-adapter/core";
import type { ApprovalDialog, DialogDecision } from "./approval-dialog.js";
import { type ApprovalEventBus, type ApprovalOrigin, brokerApproval } from "./approval-request.js";
import { type ApprovalPolicy, type ApprovalTool, needsApproval } from "./approve-tools-setting.js";

export interface ApprovalGateOptions {
  /** `settings.approveTools`. */
  approveTools?: ApproveToolsSetting;
  /** A server's own `approveTools`; wins over the global one. */
  serverApproveTools?: (serverName: string) => ApproveToolsSetting | undefined;
  /** Where the broker request is emitted; Pi's `pi.events`. */
  events?: ApprovalEventBus;
  /** Asks the user; absent in headless sessions, which then fail closed. */
  dialog?: ApprovalDialog;
}

export interface ApprovalCall {
  serverName: string;
  tool: ApprovalTool;
  args: Record<string, unknown>;
  origin: ApprovalOrigin;
  signal?: AbortSignal;
}

export type ApprovalVia = "policy" | "session" | "broker" | "dialog" | "headless" | "cancelled";

export type ApprovalOutcome =
  | { allowed: true; via: ApprovalVia }
  | { allowed: false; via: ApprovalVia; code: "denied" | "approval_required"; message: string };

export class ApprovalGate {
  private readonly sessionApprovals = new Set<string>();
  private dialogQueue: Promise<unknown> = Promise.resolve();
  private options: ApprovalGateOptions;

  constructor(options: ApprovalGateOptions = {}) {
    this.options = { ...options };
  }

  /**
   * Sets the host's event bus and dialog once the host knows them (a session
   * starting). Replaces both: a dialog left out means the host has no UI.
   */
  attachHost(host: { events?: ApprovalEventBus; dialog?: ApprovalDialog }): void {
    this.options.events = host.events;
    this.options.dialog = host.dialog;
  }

  /** Never throws; a broker or dialog failure denies. */
  async check(call: ApprovalCall): Promise<ApprovalOutcome> {
    const key = sessionKey(call.serverName, call.tool.name);
    if (this.sessionApprovals.has(key)) return { allowed: true, via: "session" };
    // Listeners and the dialog get a frozen copy of the arguments, made only if one of them reads it.
    let frozenArgs: Readonly<Record<string, unknown>> | undefined;
    const argsCopy = () => (frozenArgs ??= Object.freeze(structuredCloneSafe(call.args)));

    const brokered = await brokerApproval(this.options.events, {
      serverName: call.serverName,
      originalToolName: call.tool.name,
      prefixedToolName: call.tool.prefixedName,
      get args() {
        return argsCopy();
      },
      origin: call.origin,
      ...(call.signal ? { signal: call.signal } : {}),
    });
    if (brokered.claimed && brokered.decision !== "abstain") {
      return this.apply(brokered.decision, "broker", call, brokered.error);
    }

    const policy: ApprovalPolicy = {
      global: this.options.approveTools,
      server: this.options.serverApproveTools?.(call.serverName),
    };
    if (!needsApproval(call.tool, policy)) return { allowed: true, via: "policy" };
    if (call.signal?.aborted) return this.refuse("cancelled", "denied", call, "the call was cancelled");

    const dialog = this.options.dialog;
    if (!dialog) {
      return this.refuse(
        "headless",
        "approval_required",
        call,
        "it needs the user's approval (approveTools), and this session has no UI to ask. Ask the user to run it in an interactive session, or to change approveTools",
      );
    }
    // One dialog at a time; a queued call may find its tool allowed for the session meanwhile.
    const answer = this.dialogQueue.then(async () => {
      if (this.sessionApprovals.has(key)) return "session" as const;
      if (call.signal?.aborted) return undefined;
      try {
        return await dialog({
          serverName: call.serverName,
          originalToolName: call.tool.name,
          prefixedToolName: call.tool.prefixedName,
          args: argsCopy(),
          ...(call.signal ? { signal: call.signal } : {}),
        });
      } catch {
        return undefined;
      }
    });
    this.dialogQueue = answer.catch(() => {});
    const decision = await answer;
    if (decision === "session") return { allowed: true, via: "session" };
    if (decision === undefined) {
      const cancelled = call.signal?.aborted === true;
      return this.refuse(
        cancelled ? "cancelled" : "dialog",
        "denied",
        call,
        cancelled ? "the call was cancelled" : "the approval dialog was dismissed",
      );
    }
    return this.apply(decision, "dialog", call);
  }

  /** Forgets every "Allow for session" answer. */
  clearSession(): void {
    this.sessionApprovals.clear();
  }

  private apply(
    decision: DialogDecision,
    via: ApprovalVia,
    call: ApprovalCall,
    reason?: string,
  ): ApprovalOutcome {
    if (decision === "allow_for_session")
      this.sessionApprovals.add(sessionKey(call.serverName, call.tool.name));
    if (decision === "deny") return this.refuse(via, "denied", call, reason ?? "the user denied it");
    return { allowed: true, via };
  }

  private refuse(
    via: ApprovalVia,
    code: "denied" | "approval_required",
    call: ApprovalCall,
    reason: string,
  ): ApprovalOutcome {
    const message = `MCP tool ${call.tool.prefixedName} (server ${call.serverName}) was not called: ${reason}.`;
    return { allowed: false, via, code, message };
  }
}

function sessionKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

function structuredCloneSafe(args: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(args);
  } catch {
    return { ...args };
  }
}

/**
 * The text a model reads when a call was refused: one JSON object with a
 * stable `error` code (`denied` or `approval_required`), server, tool and message.
 */
export function formatApprovalRefusal(
  outcome: Extract<ApprovalOutcome, { allowed: false }>,
  call: Pick<ApprovalCall, "serverName" | "tool">,
): string {
  return JSON.stringify({
    error: outcome.code,
    server: call.serverName,
    tool: call.tool.name,
    message: outcome.message,
  });
}
