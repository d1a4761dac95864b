/**
 * MCP Apps in the runtime: which viewer a session uses (`MCP_UI_VIEWER`, or
 * the caller's choice — the CLI says `none`), how an app's tool-call
 * consent is asked through the host's dialogs, and where what an app says
 * to the model goes: a message starts a turn (where the host can start
 * one), a model-context update waits for the next turn.
 */

import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import type {
  AskToolConsent,
  ToolConsentMode,
  UiMessage,
  UiModelContext,
  UiToolResult,
  UiViewerOptions,
} from "@pi-mcp-adapter/ui";
// Only the viewer choice is needed at start; the viewer itself loads when the first app opens.
import { type UiViewerMode, uiViewerMode } from "@pi-mcp-adapter/ui/viewer-mode";
import type { Host } from "../host.js";
import type { CallResult } from "./call-result.js";
import type { NextTurnNotes } from "./next-turn-notes.js";

/** How a runtime shows MCP Apps. */
export interface RuntimeUiOptions {
  /** `browser` or `none`; default from `MCP_UI_VIEWER`, else the browser where a display exists. */
  viewer?: UiViewerMode;
  /** Tool consent; default from `MCP_UI_TOOL_CONSENT`, else `once-per-server`. */
  consent?: ToolConsentMode;
  /** Opens a window's URL; default the platform's browser opener (or `host.openUrl`). */
  open?: (url: string) => Promise<void>;
  /** Asks whether an app may call a tool; default a dialog of the host (none without a UI: refused). */
  askConsent?: AskToolConsent;
  /** How the host introduces itself to apps (`ui/initialize`); `createRuntime` passes the client identity. */
  hostInfo?: { name: string; version: string };
}

export const UI_CONSENT_ALLOW = "Allow";
export const UI_CONSENT_DENY = "Deny";

/** The viewer mode and options for a runtime; a notice for an `MCP_UI_VIEWER` value that was not followed. */
export function resolveUiOptions(
  options: RuntimeUiOptions | undefined,
  host: Host,
  env: Record<string, string | undefined> = process.env,
): { mode: UiViewerMode; viewer: UiViewerOptions; note?: string } {
  const choice = options?.viewer ? { mode: options.viewer } : uiViewerMode(env);
  const open = options?.open ?? host.openUrl;
  return {
    mode: choice.mode,
    ...("note" in choice && choice.note ? { note: choice.note } : {}),
    viewer: {
      ...(open ? { open } : {}),
      ...(options?.consent ? { consent: options.consent } : {}),
      ...(options?.hostInfo ? { hostInfo: options.hostInfo } : {}),
      askConsent: options?.askConsent ?? (host.hasUI ? consentDialog(host) : undefined),
    },
  };
}

/** Asks in a host dialog: Allow / Deny. */
function consentDialog(host: Host): AskToolConsent {
  return async ({ serverName, toolName, appToolName }) => {
    const answer = await host.dialogs.select(
      `The ${serverName} app (${appToolName}) wants to call the MCP tool ${toolName}`,
      [UI_CONSENT_ALLOW, UI_CONSENT_DENY],
    );
    return answer === UI_CONSENT_ALLOW;
  };
}

/** A call's result as an app receives it: the bounded content, the error flag and `structuredContent`. */
export function appResultOf(result: CallResult): UiToolResult {
  return {
    content: result.content,
    isError: result.isError,
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
  };
}

/** The longest app context the model gets on a turn; the rest is cut with a note. */
export const MAX_APP_CONTEXT_CHARS = 4000;

/**
 * Where an app's words for the model go: messages (`ui/message`, MCP-UI
 * `prompt` and `intent`) start a turn through `host.startTurn` when the host
 * has it; context updates wait in `notes` for the next turn, one per window
 * (a later update replaces the last); notes about a window reach the user as notices.
 */
export function appTurns(
  host: Host,
  notes: NextTurnNotes,
  uiMessageTurnText: (message: UiMessage) => string | undefined,
): Pick<UiViewerOptions, "deliver" | "onModelContext" | "notify"> {
  const startTurn = host.startTurn?.bind(host);
  return {
    ...(startTurn
      ? {
          deliver: (message) => {
            const text = uiMessageTurnText(message);
            if (text === undefined) return false;
            startTurn(stripControlSequences(text));
            return true;
          },
        }
      : {}),
    onModelContext: (update) => notes.set(`app\u0000${update.sessionId}`, appContextNote(update)),
    notify: (message) => host.notify(message, "warning"),
  };
}

/** An app's context as the model reads it: who sent it, then its text (bounded). */
export function appContextNote(update: UiModelContext): string {
  const texts = update.content
    .map((block) => (block as { type?: unknown; text?: unknown } | null)?.text)
    .filter((t): t is string => typeof t === "string");
  if (update.structuredContent) texts.push(JSON.stringify(update.structuredContent));
  const body = stripControlSequences(texts.join("\n")).trim() || "(empty)";
  const bounded =
    body.length > MAX_APP_CONTEXT_CHARS ? `${body.slice(0, MAX_APP_CONTEXT_CHARS)}… (cut)` : body;
  return `Context from the ${update.serverName} app (${update.toolName}):\n${bounded}`;
}
