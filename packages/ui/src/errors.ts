/**
 * The MCP Apps viewer's error: a stable `code` a host branches on, and a
 * message naming the server and resource involved. A small class of its own
 * (ui does not depend on core), with the same shape as core's
 * `McpAdapterError` (`code`, `message`, `cause`).
 */

export type UiErrorCode =
  /** `show` was called after the viewer was closed (the session is shutting down). */
  | "viewer_closed"
  /** The tool's `ui://` resource has neither text nor a blob to show as the app's HTML. */
  | "no_html_content";

export class UiError extends Error {
  readonly code: UiErrorCode;

  constructor(code: UiErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UiError";
    this.code = code;
  }
}
