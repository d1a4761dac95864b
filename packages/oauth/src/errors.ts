/**
 * The OAuth package's error: a stable `code` plus a message that tells the
 * user what to do. Messages never include token values, client secrets,
 * PKCE verifiers or `state`.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type OAuthErrorCode =
  | "store_unavailable"
  | "store_locked"
  | "store_failed"
  | "file_key_missing"
  | "file_key_invalid"
  | "file_corrupt"
  | "state_mismatch"
  | "callback_failed"
  | "callback_timeout"
  | "issuer_mismatch"
  | "authorization_failed"
  | "not_authorized"
  | "invalid_input";

export class OAuthError extends McpAdapterError {
  declare readonly code: OAuthErrorCode;

  constructor(code: OAuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "OAuthError";
  }
}

/**
 * A connection reached a server that wants a login it does not have. Named
 * like the SDK's `UnauthorizedError` because that name is how a transport
 * tells "needs auth" from "could not connect"; `code` stays `not_authorized`.
 */
export class OAuthLoginRequiredError extends OAuthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("not_authorized", message, options);
    this.name = "UnauthorizedError";
  }
}
