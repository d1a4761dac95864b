/**
 * The one error class config throws, for the few operations that cannot
 * degrade to a `ConfigProblem` (writes, connect-time resolution). Part of
 * core's `McpAdapterError` family: callers branch on the stable `code`.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type ConfigErrorCode =
  | "untrusted_project"
  | "write_failed"
  | "secret_failed"
  | "missing_variable"
  | "invalid_arguments"
  | "invalid_config"
  | "server_exists"
  | "server_not_found";

export class ConfigError extends McpAdapterError {
  declare readonly code: ConfigErrorCode;

  constructor(code: ConfigErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "ConfigError";
  }
}
