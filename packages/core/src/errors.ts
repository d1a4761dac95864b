/**
 * The error family shared by every pi-mcp-adapter package.
 *
 * Each error carries a stable string `code` that callers can branch on, a
 * message written for the person reading it (what was expected, and where),
 * and the underlying `cause` when there is one.
 */
export class McpAdapterError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpAdapterError";
    this.code = code;
  }
}

/** A short, single-line rendering of any thrown value, for messages. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
