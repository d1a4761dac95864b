/**
 * The broker: before the policy runs, every uncached call is offered on an
 * event bus so that a permission extension can decide for the user.
 */
import type { SkillApprovalSubject } from "./approval-dialog.js";

/** The event name other extensions listen on. */
export const MCP_TOOL_APPROVAL_REQUEST_EVENT = "pi-mcp-adapter:tool-approval-request";

export type ApprovalDecision =
  | "allow_once"
  | "allow_for_session"
  | "allow_server_for_session"
  | "deny"
  | "abstain";
const DECISIONS: readonly string[] = [
  "allow_once",
  "allow_for_session",
  "allow_server_for_session",
  "deny",
  "abstain",
];

/** Which call path asked (`command`: the user typed it, e.g. `/skill:name`; `skill`: an MCP skill's load). */
export type ApprovalOrigin =
  | "proxy"
  | "direct"
  | "script"
  | "resource"
  | "prompt"
  | "ui"
  | "skill"
  | "command";

/** The minimal event bus the broker needs; Pi's `pi.events` fits. */
export interface ApprovalEventBus {
  emit(channel: string, data: unknown): void;
}

/** What a listener of `MCP_TOOL_APPROVAL_REQUEST_EVENT` receives. */
export interface ToolApprovalRequest {
  readonly serverName: string;
  readonly originalToolName: string;
  readonly prefixedToolName: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly origin: ApprovalOrigin;
  /** The tool's MCP annotations (`readOnlyHint`, `destructiveHint`, …) as listed, if it has any. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** True when the tool changed since the user accepted it (tool pinning); see `change` in the README. */
  readonly fingerprintChanged: boolean;
  /** Set when the call loads an MCP skill (or reads one of its files): the skill and the files an answer covers. */
  readonly skill?: SkillApprovalSubject;
  /** Aborted when the call is cancelled; a decider should stop waiting then. */
  readonly signal?: AbortSignal;
  /**
   * Takes the decision. Must be called synchronously inside the listener:
   * claims after the event has been delivered are ignored. The first claim
   * wins; later claims return false. `decide` resolves to the decision;
   * `"abstain"` leaves it to the policy; a rejection or an unknown value denies.
   */
  claim(decide: () => Promise<ApprovalDecision>): boolean;
}

export type BrokerResult =
  | { claimed: false }
  | { claimed: true; decision: Exclude<ApprovalDecision, "abstain"> | "abstain"; error?: string };

export type BrokerCall = Omit<ToolApprovalRequest, "claim">;

/** Emits the request and waits for the claimed decision, if any. */
export async function brokerApproval(
  bus: ApprovalEventBus | undefined,
  call: BrokerCall,
): Promise<BrokerResult> {
  const decide = offerApproval(bus, call);
  return decide ? claimedDecision(decide) : { claimed: false };
}

/**
 * Emits the request; returns the decider a listener claimed (synchronously,
 * while the event was delivered), if one did. A call nobody claims goes on
 * without waiting for anything.
 */
export function offerApproval(
  bus: ApprovalEventBus | undefined,
  call: BrokerCall,
): (() => Promise<ApprovalDecision>) | undefined {
  if (!bus) return undefined;
  let open = true;
  let decide: (() => Promise<ApprovalDecision>) | undefined;
  const request: ToolApprovalRequest = Object.freeze({
    serverName: call.serverName,
    originalToolName: call.originalToolName,
    prefixedToolName: call.prefixedToolName,
    origin: call.origin,
    ...(call.annotations ? { annotations: call.annotations } : {}),
    fingerprintChanged: call.fingerprintChanged,
    ...(call.skill ? { skill: call.skill } : {}),
    ...(call.signal ? { signal: call.signal } : {}),
    // Read through, so a caller may make `args` lazy: most requests are never inspected.
    get args() {
      return call.args;
    },
    claim(fn: () => Promise<ApprovalDecision>): boolean {
      if (!open || decide || typeof fn !== "function") return false;
      decide = fn;
      return true;
    },
  });
  try {
    bus.emit(MCP_TOOL_APPROVAL_REQUEST_EVENT, request);
  } catch {
    // A throwing listener must not break the call; a claim it made before throwing still counts.
  } finally {
    open = false;
  }
  return decide;
}

/** The decision of a claimed request: a known decision as is; a rejection or an unknown value denies. */
export async function claimedDecision(
  decide: () => Promise<ApprovalDecision>,
): Promise<Extract<BrokerResult, { claimed: true }>> {
  try {
    const decision: unknown = await decide();
    if (typeof decision === "string" && DECISIONS.includes(decision)) {
      return { claimed: true, decision: decision as ApprovalDecision };
    }
    return {
      claimed: true,
      decision: "deny",
      error: `the approval broker answered ${JSON.stringify(decision)}`,
    };
  } catch (error) {
    return {
      claimed: true,
      decision: "deny",
      error: `the approval broker failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
