export {
  DEFAULT_SCRIPT_TIMEOUT_MS,
  MAX_SCRIPT_TIMEOUT_MS,
  type RunScriptOptions,
  runScript,
  SCRIPT_TRANSFER_BUDGET_BYTES,
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
export {
  formatScriptOutcome,
  parseScriptParams,
  SCRIPT_TOOL_DESCRIPTION,
  SCRIPT_TOOL_NAME,
  SCRIPT_TOOL_PARAMETERS,
  type ScriptParams,
} from "./script-tool.js";
