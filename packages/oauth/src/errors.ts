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
