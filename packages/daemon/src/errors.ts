/** The daemon package's errors: one class, stable string codes. */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type DaemonErrorCode =
  /** This platform cannot share servers (Windows). */
  | "daemon_unsupported"
  /** The daemon directory or socket is unsafe or unusable (modes, owner, path length). */
  | "daemon_unsafe"
  /** No daemon answered within the start deadline. */
  | "daemon_start_failed"
  /** The daemon refused the hello (bad token, bad spec) or could not start the server. */
  | "daemon_refused"
  /** A hello line the daemon cannot read: not JSON, another wire version, a field missing or of the wrong type. */
  | "bad_hello"
  /** The connection to the daemon ended. */
  | "daemon_closed"
  /** The daemon went away before a message was written to it: the message never left this session. */
  | "daemon_lost";

export class DaemonError extends McpAdapterError {
  override readonly code: DaemonErrorCode;

  constructor(code: DaemonErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "DaemonError";
    this.code = code;
  }
}
