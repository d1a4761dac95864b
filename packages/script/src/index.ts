export { ScriptArgumentsError, type ScriptArgumentsErrorCode } from "./errors.js";
export {
  type RunScriptOptions,
  runScript,
  type ScriptErrorCode,
  type ScriptLogLine,
  type ScriptOutcome,
} from "./run-script.js";
export type {
  ScriptCallOptions,
  ScriptCallResult,
  ScriptDescribeQuery,
  ScriptHost,
  ScriptSearchQuery,
} from "./script-host.js";
export { DEFAULT_SCRIPT_TIMEOUT_MS, SCRIPT_TRANSFER_BUDGET_BYTES } from "./script-limits.js";
export {
  formatScriptOutcome,
  parseScriptParams,
  SCRIPT_TOOL_DESCRIPTION,
  SCRIPT_TOOL_NAME,
  SCRIPT_TOOL_PARAMETERS,
} from "./script-tool.js";
