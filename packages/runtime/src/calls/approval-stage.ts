/**
 * The pipeline's first stage: what approval sees of a call (the target as
 * an approval tool, the server's definition hash and the tool's fingerprint
 * that session grants are tied to, and a change tool pinning found), the
 * gate's verdict, and accepting a change the user allowed. A changed tool
 * blocks (`pinTools` enforce) when it is called as a direct tool or matches
 * `approveTools`; other changed tools run with a warning for the model.
 */
import {
  type ApprovalCall,
  type ApprovalDialog,
  type ApprovalEventBus,
  ApprovalGate,
  type ApprovalOutcome,
  type ApproveToolsSetting,
  needsApproval,
  type SessionGrant,
  type SkillApprovalSubject,
  type ToolChangeNotice,
} from "@pi-mcp-adapter/approval";
import { skillFilesFingerprint, skillRoot, type ToolChange } from "@pi-mcp-adapter/catalog";
import { toolChangeLines, toolChangeSummary, trustToolsCommand } from "../format/tool-changes.js";
import type { CallOrigin } from "../observability/call-observers.js";
import { approvalOrigin, approvalTool, type CallTarget, kindOf, serverOf } from "./call-target.js";
import type { ToolPins } from "./tool-pins.js";

export interface ApprovalStageOptions {
  approveTools?: ApproveToolsSetting;
  serverApproveTools: (server: string) => ApproveToolsSetting | undefined;
  events?: ApprovalEventBus;
  dialog?: ApprovalDialog;
  /** The session's tool pinning; left out, tools are not pinned. */
  pins?: ToolPins;
  /** A configured server's definition hash (session grants hold while it stays). */
  definitionHash?: (server: string) => string | undefined;
  /** Hears each new session grant (hosts store them with the session). */
  onGrant?: (grant: SessionGrant) => void;
  /**
   * Lists a server live (updating the cache), so a held tool is compared
   * with what the server offers now rather than a cached listing.
   */
  relist?: (server: string) => Promise<void>;
}

export interface ApprovalStageResult {
  verdict: ApprovalOutcome;
  call: ApprovalCall;
  /** The change the tool carries and the user did not accept in this call: the result warns of it. */
  unaccepted?: ToolChange;
}

export class ApprovalStage {
  readonly gate: ApprovalGate;

  constructor(private readonly options: ApprovalStageOptions) {
    this.gate = new ApprovalGate({
      approveTools: options.approveTools,
      serverApproveTools: options.serverApproveTools,
      events: options.events,
      dialog: options.dialog,
      onGrant: options.onGrant,
    });
  }

  async check(
    target: CallTarget,
    name: string,
    args: Record<string, unknown>,
    origin: CallOrigin,
    signal: AbortSignal | undefined,
  ): Promise<ApprovalStageResult> {
    const kind = kindOf(target);
    const server = serverOf(target);
    const tool = approvalTool(target, name);
    const pins = this.options.pins;
    const pinned = kind === "tool" && pins !== undefined && pins.mode !== "off";
    // A new tool has nothing to compare with: it is reported, not held (and brokers see no change).
    const changed = () => {
      const found = pinned ? pins.changeOf(server, tool.name) : undefined;
      return found?.kind === "changed" ? found : undefined;
    };
    const asks = needsApproval(tool, {
      global: this.options.approveTools,
      server: this.options.serverApproveTools(server),
    });
    const gated = origin === "direct" || asks;
    // A listing from the cache may predate a change: before a gated call that could run (a
    // direct tool, or one the user is asked about), the server is listed live once a session.
    if (pinned && pins.mode === "enforce" && gated && (origin === "direct" || this.options.dialog)) {
      await pins.verifyOnce(server, this.options.relist);
    }
    let change = changed();
    let blocking = pins?.mode === "enforce" && change !== undefined && gated;
    if (blocking && pins) {
      // The user may have accepted it meanwhile, in another session or with trust-tools.
      await pins.reload();
      change = changed();
      blocking = change !== undefined;
    }
    const call: ApprovalCall = {
      serverName: server,
      tool,
      args,
      origin: approvalOrigin(kind, origin),
      signal,
      scope: {
        definition: this.options.definitionHash?.(server) ?? "",
        ...(pinned ? fingerprint(pins.fingerprintOf(server, tool.name)) : {}),
        ...(target.kind === "skill" ? { fingerprint: skillFilesFingerprint(target.entry) } : {}),
      },
      ...(change ? { change: notice(server, change, blocking) } : {}),
      // A skill the user loads by command is approved by that command; any other load asks them.
      ...(target.kind === "skill" && origin !== "command"
        ? { explicit: { reason: skillApprovalReason(target.name) }, skill: skillSubject(target) }
        : {}),
    };
    const verdict = await this.gate.check(call);
    if (target.kind === "skill" && origin === "command" && verdict.allowed) {
      // The files of the skill the user loaded may be read by the model this session (same digests
      // only); the grant is reported like a dialog's, so the host keeps it with its session.
      const fingerprint = call.scope?.fingerprint;
      this.gate.grant({
        server,
        tool: tool.name,
        definition: call.scope?.definition ?? "",
        ...(fingerprint !== undefined ? { fingerprint } : {}),
      });
    }
    if (verdict.allowed && verdict.acceptedChange) {
      // The user approved this call; a change that could not be saved was already reported (`notify`).
      await pins?.acceptListed(server, [tool.name]).catch(() => {});
      return { verdict, call };
    }
    return { verdict, call, ...(change && verdict.allowed ? { unaccepted: change } : {}) };
  }
}

function skillApprovalReason(name: string): string {
  return `loading the MCP skill "${name}" needs the user's approval, and this session has no UI to ask. Ask the user to load it themselves with /skill:${name}`;
}

/** What the dialog names of a skill load: the skill, the file read now, and every file the grant binds. */
function skillSubject(target: Extract<CallTarget, { kind: "skill" }>): SkillApprovalSubject {
  const { entry } = target;
  const root = `${skillRoot(entry.uri) ?? ""}/`;
  const files =
    entry.resources === "dynamic"
      ? ("dynamic" as const)
      : entry.resources.map((file) => ({
          path: file.uri.startsWith(root) ? file.uri.slice(root.length) : file.uri,
          size: file.size,
        }));
  return { name: target.name, uri: entry.uri, ...(target.file ? { file: target.file } : {}), files };
}

function fingerprint(value: string | undefined): { fingerprint?: string } {
  return value === undefined ? {} : { fingerprint: value };
}

function notice(server: string, change: ToolChange, blocking: boolean): ToolChangeNotice {
  return {
    summary: toolChangeSummary(change),
    lines: toolChangeLines(change),
    blocking,
    acceptHint: trustToolsCommand(server),
  };
}
