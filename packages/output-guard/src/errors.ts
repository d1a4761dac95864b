/**
 * The output guard's error: a stable `code` callers branch on, and a message
 * naming the setting or the bound that was passed. Part of core's
 * `McpAdapterError` family.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type OutputGuardErrorCode =
  /** The `outputGuard` setting has the wrong shape. */
  | "invalid_output_guard_settings"
  /** The `spillMaxAgeDays` setting is not a number of days above 0. */
  | "invalid_spill_max_age"
  /** One binary item is larger than the per-file bound. */
  | "blob_too_large"
  /** Saving it would pass the session's byte or file bound. */
  | "blob_session_limit";

export class OutputGuardError extends McpAdapterError {
  declare readonly code: OutputGuardErrorCode;

  constructor(code: OutputGuardErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "OutputGuardError";
  }
}
