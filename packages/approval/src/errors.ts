/**
 * The approval package's error: a stable `code` callers branch on, and a
 * message naming the setting (file and field) that was wrong. Part of core's
 * `McpAdapterError` family.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type ApprovalErrorCode =
  /** An `approveTools` setting has the wrong shape. */
  "invalid_approve_tools";

export class ApprovalError extends McpAdapterError {
  declare readonly code: ApprovalErrorCode;

  constructor(code: ApprovalErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "ApprovalError";
  }
}
