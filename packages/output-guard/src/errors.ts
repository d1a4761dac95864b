import { McpAdapterError } from "@pi-mcp-adapter/core";

/**
 * Errors of the output guard. Codes:
 * - `invalid_output_guard_settings`: the `outputGuard` setting has the wrong shape
 * - `invalid_spill_max_age`: the `spillMaxAgeDays` setting is not a number of days above 0
 * - `blob_too_large`: one binary item is larger than the per-file bound
 * - `blob_session_limit`: saving it would pass the session's byte or file bound
 */
export class OutputGuardError extends McpAdapterError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "OutputGuardError";
  }
}
