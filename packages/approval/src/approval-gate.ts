/**
 * Decides whether one MCP call may run: a session grant, then the broker
 * event, then the `approveTools` policy with a dialog (or, without a UI, a
 * fail-closed refusal). A tool that changed since it was accepted and is
 * `blocking` (tool pinning) skips session grants and always reaches the
 * dialog, whose "allow" accepts the change. One gate per session; its grants
 * (`session-grants.ts`) may be stored and restored by the host.
 */
import type { ApproveToolsSetting } from "@pi-mcp-adapter/core";
import type { ApprovalDialog, DialogDecision, SkillApprovalSubject } from "./approval-dialog.js";
import {
  type ApprovalEventBus,
  type ApprovalOrigin,
  claimedDecision,
  offerApproval,
} from "./approval-request.js";
import { type ApprovalPolicy, type ApprovalTool, needsApproval } from "./approve-tools-setting.js";
import { type GrantScope, type SessionGrant, SessionGrants } from "./session-grants.js";

export interface ApprovalGateOptions {
  /** `settings.approveTools`. */
  approveTools?: ApproveToolsSetting;
  /** A server's own `approveTools`; wins over the global one. */
  serverApproveTools?: (serverName: string) => ApproveToolsSetting | undefined;
  /** Where the broker request is emitted; Pi's `pi.events`. */
  events?: ApprovalEventBus;
  /** Asks the user; absent in headless sessions, which then fail closed. */
  dialog?: ApprovalDialog;
  /** Hears each new session grant, so the host can store it with its session. Must not throw. */
  onGrant?: (grant: SessionGrant) => void;
}

/** A tool that changed since the user accepted it (tool pinning). */
export interface ToolChangeNotice {
  /** One line naming what changed, for refusals. */
  summary: string;
  /** What changed, one line each, for the dialog. */
  lines: readonly string[];
  /** True when the call must wait for the user to accept the change. */
  blocking: boolean;
  /** How a user without a dialog accepts it (a command line). */
  acceptHint: string;
}

export interface ApprovalCall {
  serverName: string;
  tool: ApprovalTool;
  args: Record<string, unknown>;
  origin: ApprovalOrigin;
  signal?: AbortSignal;
  /** The server's definition hash and the tool's fingerprint now; grants cover a call only while they match. */
  scope?: GrantScope;
  /** Set when the tool changed since it was accepted. */
  change?: ToolChangeNotice;
  /**
   * The user must approve this call whatever `approveTools` says (loading an
   * MCP skill): no policy lets it through; a broker, a session grant (bound
   * to `scope`) or the dialog must, and without a UI it is refused with `explicitReason`.
   */
  explicit?: { reason: string };
  /** The MCP skill the call loads (or reads a file of): the dialog names it and its files. */
  skill?: SkillApprovalSubject;
}

export type ApprovalVia = "policy" | "session" | "broker" | "dialog" | "headless" | "cancelled";

export type ApprovalOutcome =
  | { allowed: true; via: ApprovalVia; acceptedChange?: true }
  | {
      allowed: false;
      via: ApprovalVia;
      code: "denied" | "approval_required" | "tool_changed";
      message: string;
    };

export class ApprovalGate {
  private readonly grants = new SessionGrants();
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
    const blocking = call.change?.blocking === true;
    const granted = () => !blocking && this.grants.covers(call.serverName, call.tool.name, scopeOf(call));
    if (granted()) return { allowed: true, via: "session" };
    // Listeners and the dialog get a frozen copy of the arguments, made only if one of them reads it.
    let frozenArgs: Readonly<Record<string, unknown>> | undefined;
    const argsCopy = () => (frozenArgs ??= Object.freeze(structuredCloneSafe(call.args)));

    // Brokers see every call; only a claimed one waits for an answer.
    const decide = offerApproval(this.options.events, {
      serverName: call.serverName,
      originalToolName: call.tool.name,
      prefixedToolName: call.tool.prefixedName,
      get args() {
        return argsCopy();
      },
      origin: call.origin,
      ...(call.tool.annotations ? { annotations: Object.freeze({ ...call.tool.annotations }) } : {}),
      fingerprintChanged: call.change !== undefined,
      ...(call.skill ? { skill: Object.freeze({ ...call.skill }) } : {}),
      ...(call.signal ? { signal: call.signal } : {}),
    });
    if (decide) {
      const brokered = await claimedDecision(decide);
      if (brokered.decision !== "abstain")
        return this.apply(brokered.decision, "broker", call, brokered.error);
    }

    const policy: ApprovalPolicy = {
      global: this.options.approveTools,
      server: this.options.serverApproveTools?.(call.serverName),
    };
    if (!blocking && !call.explicit && !needsApproval(call.tool, policy))
      return { allowed: true, via: "policy" };
    if (call.signal?.aborted) return this.refuse("cancelled", "denied", call, "the call was cancelled");

    const dialog = this.options.dialog;
    if (!dialog) {
      if (call.explicit) return this.refuse("headless", "approval_required", call, call.explicit.reason);
      if (blocking && call.change) {
        return this.refuse(
          "headless",
          "tool_changed",
          call,
          `it changed since it was accepted (${call.change.summary}), and this session has no UI to ask. Ask the user to review and accept the change: ${call.change.acceptHint}`,
        );
      }
      return this.refuse(
        "headless",
        "approval_required",
        call,
        "it needs the user's approval (approveTools), and this session has no UI to ask. Ask the user to run it in an interactive session, or to change approveTools",
      );
    }
    // One dialog at a time; a queued call may find its tool allowed for the session meanwhile.
    const answer = this.dialogQueue.then(async () => {
      if (granted()) return "session" as const;
      if (call.signal?.aborted) return undefined;
      try {
        return await dialog({
          serverName: call.serverName,
          originalToolName: call.tool.name,
          prefixedToolName: call.tool.prefixedName,
          args: argsCopy(),
          ...(blocking && call.change ? { change: call.change.lines } : {}),
          ...(call.skill ? { skill: call.skill } : {}),
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
    const outcome = this.apply(decision, "dialog", call);
    return outcome.allowed && blocking ? { ...outcome, acceptedChange: true } : outcome;
  }

  /** Adds grants the host stored with its session (a resumed or reloaded session); malformed ones are skipped. */
  restoreGrants(grants: Iterable<unknown>): void {
    this.grants.restore(grants);
  }

  /**
   * Adds a grant the user gave outside the dialog (an MCP skill they loaded
   * by command), reported to `onGrant` as a new one so the host stores it
   * with its session; a grant the session already holds is not reported again.
   */
  grant(grant: SessionGrant): void {
    const held = this.grants
      .list()
      .some(
        (g) =>
          g.server === grant.server &&
          g.tool === grant.tool &&
          g.definition === grant.definition &&
          g.fingerprint === grant.fingerprint,
      );
    if (held) return;
    this.grants.add(grant);
    this.reportGrant(grant);
  }

  /** The session's grants, as stored. */
  sessionGrants(): SessionGrant[] {
    return this.grants.list();
  }

  /** Forgets every "Allow for session" answer. */
  clearSession(): void {
    this.grants.clear();
  }

  private apply(
    decision: DialogDecision,
    via: ApprovalVia,
    call: ApprovalCall,
    reason?: string,
  ): ApprovalOutcome {
    if (decision === "deny") return this.refuse(via, "denied", call, reason ?? "the user denied it");
    if (decision === "allow_for_session" || decision === "allow_server_for_session") {
      const scope = scopeOf(call);
      const grant: SessionGrant =
        decision === "allow_server_for_session"
          ? { server: call.serverName, definition: scope.definition }
          : {
              server: call.serverName,
              tool: call.tool.name,
              definition: scope.definition,
              ...(scope.fingerprint !== undefined ? { fingerprint: scope.fingerprint } : {}),
            };
      this.grants.add(grant);
      this.reportGrant(grant);
    }
    return { allowed: true, via };
  }

  private reportGrant(grant: SessionGrant): void {
    try {
      this.options.onGrant?.(grant);
    } catch {
      // storing a grant is the host's business; the call goes on
    }
  }

  private refuse(
    via: ApprovalVia,
    code: "denied" | "approval_required" | "tool_changed",
    call: ApprovalCall,
    reason: string,
  ): ApprovalOutcome {
    const message = `MCP tool ${call.tool.prefixedName} (server ${call.serverName}) was not called: ${reason}.`;
    return { allowed: false, via, code, message };
  }
}

function scopeOf(call: ApprovalCall): GrantScope {
  return call.scope ?? { definition: "" };
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
 * stable `error` code (`denied`, `approval_required` or `tool_changed`), server, tool and message.
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
