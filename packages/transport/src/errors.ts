import { McpAdapterError } from "@pi-mcp-adapter/core";

export type TransportErrorCode =
  | "unknown_server"
  | "server_disabled"
  | "unsupported_transport"
  | "unsupported_protocol"
  | "connect_failed"
  | "sandbox_unavailable"
  | "needs_auth"
  | "request_timeout"
  | "request_cancelled"
  | "request_failed"
  | "invalid_result"
  | "closed";

/** Errors from connecting to or talking with an MCP server. Messages name the server. */
export class TransportError extends McpAdapterError {
  override readonly code: TransportErrorCode;
  readonly server: string;

  constructor(code: TransportErrorCode, server: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "TransportError";
    this.code = code;
    this.server = server;
  }
}
