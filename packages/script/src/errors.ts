/**
 * The script package's error: a stable `code` callers branch on, and a
 * message naming the `mcpScript` argument that was wrong. A tiny class of its
 * own (not core's `McpAdapterError`), so the light `./tool` entry loads no
 * other package; it has the same shape (`code`, `message`, `cause`).
 */

export type ScriptArgumentsErrorCode =
  /** The tool's arguments are not an object. */
  | "invalid_arguments"
  /** `code` is missing, not a string, or blank. */
  | "invalid_code"
  /** `timeoutMs` is not an integer from 1 to the longest deadline. */
  | "invalid_timeout";

/** Thrown by `parseScriptParams` for arguments the model sent that do not fit. */
export class ScriptArgumentsError extends Error {
  readonly code: ScriptArgumentsErrorCode;

  constructor(code: ScriptArgumentsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ScriptArgumentsError";
    this.code = code;
  }
}
