import { McpAdapterError } from "@pi-mcp-adapter/core";

export type TransportErrorCode =
  | "unknown_server"
  | "server_disabled"
  | "unsupported_transport"
  | "unsupported_protocol"
  | "connect_failed"
  | "sandbox_unavailable"
  | "needs_auth"
  /** A server that failed recently and is left alone until its failure backoff ends. */
  | "unavailable"
  | "request_timeout"
  | "request_cancelled"
  | "request_failed"
  | "invalid_result"
  | "closed"
  /** The connection closed while a task ran; the task runs on on the server (see `ServerConnection.resumeTask`). */
  | "task_detached";

/** Errors from connecting to or talking with an MCP server. Messages name the server. */
export class TransportError extends McpAdapterError {
  override readonly code: TransportErrorCode;
  readonly server: string;
  /**
   * The request never left this process (the connection had ended, or its
   * shared-server daemon was gone when it was written), so sending it again
   * on a new connection cannot run it twice.
   */
  readonly notSent: boolean;

  constructor(
    code: TransportErrorCode,
    server: string,
    message: string,
    options?: { cause?: unknown; notSent?: boolean },
  ) {
    super(code, message, options);
    this.name = "TransportError";
    this.code = code;
    this.server = server;
    this.notSent = options?.notSent === true;
  }
}
