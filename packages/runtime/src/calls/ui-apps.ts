/**
 * MCP Apps in the runtime: which viewer a session uses (`MCP_UI_VIEWER`, or
 * the caller's choice — the CLI says `none`), and how an app's tool-call
 * consent is asked through the host's dialogs.
 */
import {
  type AskToolConsent,
  type ToolConsentMode,
  type UiToolResult,
  type UiViewerMode,
  type UiViewerOptions,
  uiViewerMode,
} from "@pi-mcp-adapter/ui";
import type { Host } from "../host.js";
import type { CallResult } from "./call-result.js";

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
