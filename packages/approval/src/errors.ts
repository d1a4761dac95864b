import { McpAdapterError } from "@pi-mcp-adapter/core";

/**
 * Errors of the approval package. Codes:
 * - `invalid_approve_tools`: an `approveTools` setting has the wrong shape
 */
export class ApprovalError extends McpAdapterError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "ApprovalError";
  }
}
