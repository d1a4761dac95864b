/**
 * What the runtime needs from the program it runs in, in one place. The Pi
 * shell implements it from `ctx.ui` and `pi.events`; the CLI implements a
 * headless one. The runtime never reaches past this interface into its host.
 */
import type { ApprovalEventBus } from "@pi-mcp-adapter/approval";
import type { ContentBlock } from "@pi-mcp-adapter/core";
import type { McpStatusSnapshot } from "./observability/status-events.js";

/** How loud a notice is. */
export type NoticeLevel = "info" | "warning" | "error";

/** Options every dialog takes: an aborted signal dismisses it. */
export interface DialogOptions {
  signal?: AbortSignal;
}

/**
 * The host's dialogs. Each resolves to the user's answer, or to `undefined`
 * (`false` for `confirm`) when the user dismissed it or the host cannot ask.
 * Only called when `Host.hasUI` is true.
 */
export interface HostDialogs {
  confirm(title: string, message: string, options?: DialogOptions): Promise<boolean>;
  select(title: string, choices: string[], options?: DialogOptions): Promise<string | undefined>;
  input(title: string, placeholder?: string, options?: DialogOptions): Promise<string | undefined>;
}

/** A `sampling/createMessage` request from a server, in neutral shapes (no SDK types). */
export interface SamplingRequest {
  messages: { role: "user" | "assistant"; content: ContentBlock }[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  /** The server's model preferences, passed through as sent. */
  modelPreferences?: Record<string, unknown>;
}

/** The model's answer to a sampling request. */
export interface SamplingResponse {
  role: "assistant";
  content: ContentBlock;
  /** The model that answered. */
  model: string;
  stopReason?: string;
  /** Tokens the request used, when the provider reports them (counted for stats). */
  usage?: { inputTokens: number; outputTokens: number };
}

/** Runs one sampling request on the host's model; rejects when the user or the host refuses. */
export type HostSampler = (request: SamplingRequest, signal?: AbortSignal) => Promise<SamplingResponse>;

/**
 * The runtime's host.
 *
 * - `hasUI`: false for headless hosts (the CLI, Pi's print and json modes).
 *   The runtime then never opens a dialog: calls needing approval fail closed,
 *   and client capabilities that need a person (elicitation, sampling
 *   approval) are not declared to servers.
 * - `dialogs`: confirm / select / input; only used when `hasUI` is true.
 * - `notify`: notices for the user (OAuth warnings, config problems). Must
 *   not throw; a headless host may print them or drop them.
 * - `status`: the status sink. It receives a snapshot when the runtime
 *   starts, after every server status change and every change of a running
 *   MCP task (its status message: show it while it runs), and an empty one
 *   when the runtime shuts down. Must not throw (a throw is swallowed).
 * - `events`: the bus the approval broker offers calls on (Pi: `pi.events`);
 *   left out, no broker is asked.
 * - `sample`: the host's model for sampling requests; left out, sampling is
 *   not offered to servers.
 * - `openUrl`: opens a URL in the user's browser (URL elicitation, after
 *   consent); left out, the user is asked to open it themselves.
 * - `progress`: a running call's progress, as one line (`"3/10 · indexing"`),
 *   at most one a second per call; `text` undefined means the call ended
 *   (clear what was shown). Left out, progress is not shown. Must not throw
 *   (a throw is swallowed).
 * - `reloadCommand`: how the user applies config files changed during the
 *   session in this host (Pi: `/reload`); named when a tool name is unknown
 *   and a config file changed since it was read. Left out, the note says to
 *   reload the config.
 * - `startTurn`: starts a model turn with `text` as the user's message (an
 *   MCP App's `ui/message`); while the agent is busy it waits as a follow-up.
 *   Left out, such messages wait for `mcp({ action: "ui-messages" })`.
 * - `localSkillNames`: the names of the host's own skills (Pi's, from its
 *   skill folders). An MCP skill never takes one of them: it is named
 *   `<server>-<skill>-mcp` (or the next free suffix) instead. Asked each
 *   time skills are named; must not throw. Left out, the host has none.
 * - `whenFree`: whether something waits on this process now (Pi: the
 *   model's tool calls, until the request carrying their results has left):
 *   `undefined` when nothing does, else a promise that settles when free.
 *   Work that can wait (comparing listings read from the disk cache with
 *   their tool pins) runs then. Left out, that work runs at once.
 */
export interface Host {
  readonly hasUI: boolean;
  readonly dialogs: HostDialogs;
  notify(message: string, level: NoticeLevel): void;
  status(snapshot: McpStatusSnapshot): void;
  readonly events?: ApprovalEventBus;
  readonly sample?: HostSampler;
  readonly openUrl?: (url: string) => Promise<void>;
  progress?(server: string, tool: string, text: string | undefined): void;
  startTurn?(text: string): void;
  readonly reloadCommand?: string;
  localSkillNames?(): Iterable<string>;
  whenFree?(): Promise<void> | undefined;
}

/**
 * Resolves at the next event-loop turn at which `whenFree` (a host's) says
 * nothing waits on this process; without it, at the next turn.
 */
export async function nextFreeTurn(whenFree?: () => Promise<void> | undefined): Promise<void> {
  for (;;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const busy = whenFree?.();
    if (!busy) return;
    await busy;
  }
}

/** Dialogs of a host without a UI: every question is answered "no". */
export const NO_DIALOGS: HostDialogs = {
  confirm: async () => false,
  select: async () => undefined,
  input: async () => undefined,
};

/**
 * A host without a UI (the CLI, tests, embedders): no dialogs, no broker,
 * no model; notices go to `notify` (default: dropped), status is dropped,
 * progress goes to `progress` (default: not shown).
 */
export function headlessHost(
  options: { notify?: Host["notify"]; status?: Host["status"]; progress?: Host["progress"] } = {},
): Host {
  return {
    hasUI: false,
    dialogs: NO_DIALOGS,
    notify: options.notify ?? (() => {}),
    status: options.status ?? (() => {}),
    ...(options.progress ? { progress: options.progress } : {}),
  };
}
