/**
 * The runtime's error family: a stable `code` a host can branch on (the CLI
 * maps some to exit codes, the proxy tool shows the message), and a message
 * that names the server, tool or argument that was wrong. Errors of the
 * layers below (config, transport, oauth) pass through with their own codes.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type RuntimeErrorCode =
  /** A server name that is not configured. */
  | "unknown_server"
  /** A configured server that is disabled or could not be listed. */
  | "server_unavailable"
  /** No tool by that name (suggestions in the message), or a direct tool that is gone. */
  | "unknown_tool"
  /** No MCP skill by that name (the message lists the skills offered). */
  | "unknown_skill"
  /** A name several servers offer; the message lists them. */
  | "ambiguous_tool"
  /** Arguments that do not fit: not a JSON object, a field of the wrong type, an unknown action. */
  | "invalid_args"
  /** Something the caller may not do (an app calling a model-only tool). */
  | "not_allowed"
  /** `reload()` on a runtime built from a fixed server list. */
  | "reload_unavailable"
  /** A server or host that does not offer what was asked (resource subscriptions; sampling without a host model). */
  | "not_supported";

export class RuntimeError extends McpAdapterError {
  override readonly code: RuntimeErrorCode;

  constructor(code: RuntimeErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "RuntimeError";
    this.code = code;
  }
}

/** The message for a server name that is not configured. */
export function unknownServer(name: string, known: readonly string[]): RuntimeError {
  return new RuntimeError(
    "unknown_server",
    `Unknown MCP server "${name}" (configured: ${known.join(", ") || "none"})`,
  );
}
