/**
 * The CLI's errors and exit codes: one `CliError` with a typed code, each code
 * mapped to the exit code the help and docs/pi-mcp-adapter/cli.md promise, and
 * the one way a failure is told: the message on stderr and, with `--json`,
 * `{ "error", "code" }` on stdout. A new failure is a code here with its exit
 * code; errors of the packages below keep their own code and exit with 1.
 */
import { describeError, McpAdapterError } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";

/** The exit codes; `EXIT_CODES` (commands.ts) says what each means in `--help`. */
export const EXIT = { ok: 0, failed: 1, usage: 2, approval: 3 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type CliErrorCode =
  /** Words the CLI cannot take: an unknown command or flag, a missing or extra argument, an unknown name given to a flag. */
  | "cli_usage"
  /** OAuth is not available (a config problem stops it; `status` names it). */
  | "auth_unavailable"
  /** No configured server by that name. */
  | "unknown_server"
  /** The server could not be listed. */
  | "server_unavailable"
  /** A server's tool changes could not be accepted (the pins were not written). */
  | "accept_failed"
  /** No MCP prompt by that name. */
  | "unknown_prompt"
  /** A prompt name several servers offer; `--server` picks one. */
  | "ambiguous_prompt"
  /** Prompt arguments that do not fit the prompt (a required one missing, an unknown one). */
  | "invalid_prompt_args"
  /** Something thrown without a code of ours (shown in `--json` only; never thrown as a `CliError`). */
  | "failed";

const EXIT_OF: Record<CliErrorCode, ExitCode> = {
  cli_usage: EXIT.usage,
  auth_unavailable: EXIT.failed,
  unknown_server: EXIT.failed,
  server_unavailable: EXIT.failed,
  accept_failed: EXIT.failed,
  unknown_prompt: EXIT.failed,
  ambiguous_prompt: EXIT.failed,
  invalid_prompt_args: EXIT.failed,
  failed: EXIT.failed,
};

export class CliError extends McpAdapterError {
  declare readonly code: CliErrorCode;

  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "CliError";
  }

  /** The exit code this error ends the CLI with. */
  get exitCode(): ExitCode {
    return EXIT_OF[this.code];
  }
}

/** The `--json` shape of a failure: `{ error, code }` plus what the command adds (e.g. `servers: []`). */
export function errorJson(code: string, error: string, extra: Record<string, unknown> = {}) {
  return { error, code, ...extra };
}

/**
 * Tells a failure and returns its exit code. `usage` (the help text) follows
 * the message for words the CLI could not read, before any command ran.
 */
export function reportFailure(error: unknown, options: { json: boolean; usage?: string }): ExitCode {
  const message = stripControlSequences(describeError(error));
  const code = error instanceof McpAdapterError ? error.code : "failed";
  process.stderr.write(options.usage ? `${message}\n\n${options.usage}\n` : `error: ${message}\n`);
  if (options.json)
    process.stdout.write(`${JSON.stringify(errorJson(code, describeError(error)), null, 2)}\n`);
  return error instanceof CliError ? error.exitCode : EXIT.failed;
}
