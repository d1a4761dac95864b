/**
 * How often the user is asked before an app calls an MCP tool (approval
 * still applies after consent):
 *
 * - `never`: never asked; apps call tools of their server freely.
 * - `once-per-server` (default): asked the first time an app of a server
 *   calls a tool; a yes covers that server's apps for the session, a no
 *   refuses that call only (the next one asks again).
 * - `always`: asked for every call.
 *
 * Set with `MCP_UI_TOOL_CONSENT`. When asking is needed but nobody can be
 * asked (no UI), calls are refused.
 */

export type ToolConsentMode = "never" | "once-per-server" | "always";

export const UI_TOOL_CONSENT_ENV = "MCP_UI_TOOL_CONSENT";

export interface ToolConsentRequest {
  serverName: string;
  /** The tool the app wants to call. */
  toolName: string;
  /** The tool whose app asks. */
  appToolName: string;
}

/** Asks the user; resolves true for yes. */
export type AskToolConsent = (request: ToolConsentRequest) => Promise<boolean>;

export function toolConsentMode(env: Record<string, string | undefined> = process.env): ToolConsentMode {
  const value = env[UI_TOOL_CONSENT_ENV]?.trim();
  return value === "never" || value === "always" ? value : "once-per-server";
}

export class ToolConsent {
  private readonly granted = new Set<string>();

  constructor(
    readonly mode: ToolConsentMode,
    private readonly ask: AskToolConsent | undefined,
  ) {}

  /** Undefined when allowed, else why not (shown to the app). */
  async check(request: ToolConsentRequest): Promise<string | undefined> {
    if (this.mode === "never") return undefined;
    if (this.mode === "once-per-server" && this.granted.has(request.serverName)) return undefined;
    if (!this.ask) return "Apps may not call MCP tools here: nobody can be asked for consent";
    const yes = await this.ask(request).catch(() => false);
    if (!yes) return `The user did not allow this app to call ${request.toolName}`;
    if (this.mode === "once-per-server") this.granted.add(request.serverName);
    return undefined;
  }
}
