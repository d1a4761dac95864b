/**
 * What the model-facing tools hand their host, typed by mode: the host (the
 * Pi shell, the CLI) branches on `details.mode` and the compiler checks every
 * branch, so a new mode cannot be half-wired. The content is what the model
 * reads; the details stay with the host (Pi keeps them in the session file).
 */
import type { UiMessage } from "@pi-mcp-adapter/ui";
import type { CallDetails, HostOutcome } from "../calls/call-result.js";

/** The modes of `mcp({...})` and what each tells its host. */
export type ProxyDetails =
  /** `mcp({})`: every server's state. */
  | { mode: "status" }
  /** `mcp({ server })`: one server's state, tools and instructions. */
  | { mode: "server"; server: string }
  /** `mcp({ search })`: the prefixed names of the hits, best first. */
  | { mode: "search"; total: number; hits: string[]; nextOffset?: number }
  | { mode: "describe"; server: string; tool: string }
  /** `mcp({ tool })`: the call's details, and the tool's own name (not prefixed). */
  | ({ mode: "call"; tool: string } & CallDetails)
  | { mode: "instructions"; server: string }
  /** `mcp({ connect })`: the server (re)connected and listed. */
  | { mode: "connect"; server: string; toolCount: number }
  | { mode: "auth-start" | "auth-complete" }
  /** `mcp({ action: "ui-messages" })`: what MCP Apps sent since the last read. */
  | { mode: "ui-messages"; messages: UiMessage[] }
  /** `mcp({ action: "install", url })`: a server the user agreed to add (a host with a dialog does this). */
  | { mode: "install"; server: string; file: string; installed: boolean };

export type ProxyMode = ProxyDetails["mode"];
export type ProxyOutcome = HostOutcome<ProxyDetails>;

/** What an `mcpScript` run tells its host. */
export interface ScriptDetails {
  mode: "script";
  ok: boolean;
  /** Tool calls the script made. */
  calls: number;
  durationMs: number;
  /** The failure's code, when the script failed. */
  error?: string;
}
