/**
 * The one error class search throws: a `regex: true` query it will not run.
 * Part of core's `McpAdapterError` family: callers branch on the stable `code`;
 * messages name the problem and suggest plain words instead.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type SearchErrorCode =
  /** Not a regular expression at all (RE2 syntax). */
  | "invalid_regex"
  /** Valid in JavaScript but outside RE2: backreferences, lookahead, lookbehind. */
  | "unsupported_regex"
  /** Longer than the length cap, or counted repetition that expands past the size cap. */
  | "regex_too_large"
  /** The scan over the catalog ran past its time budget. */
  | "regex_too_slow";

export class SearchError extends McpAdapterError {
  declare readonly code: SearchErrorCode;

  constructor(code: SearchErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "SearchError";
  }
}
