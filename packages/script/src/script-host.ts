/**
 * What a script may ask of its host. The script package never imports the
 * runtime: the runtime implements this interface (searching its catalog,
 * describing a tool, calling through its call pipeline with origin
 * `script`), and tests implement it with a real MCP server behind it.
 *
 * Every value crossing it must be plain JSON: it is copied into the
 * script's worker and counted against the transfer budget.
 */

export interface ScriptSearchQuery {
  query: string;
  server?: string;
  limit?: number;
  offset?: number;
}

export interface ScriptDescribeQuery {
  /** The tool's prefixed name (as search returns it) or its original name with `server`. */
  path: string;
  server?: string;
}

export interface ScriptCallOptions {
  server?: string;
  /** Aborted when the script ends (deadline, error, budget) while the call is in flight. */
  signal: AbortSignal;
}

/**
 * What `tools.call` resolves to inside the script: never a rejection. `data`
 * is the MCP result as the server sent it (`content`, `structuredContent`,
 * `_meta`, `isError` always a boolean), and with a tool error it comes
 * beside `error` (`tool_error`); a call that never reached the tool
 * (approval, unknown tool, connection) has no `data`.
 */
export type ScriptCallResult =
  | { ok: true; data: unknown }
  | { ok: false; error: { code: string; message: string }; data?: unknown };

export interface ScriptHost {
  /** Ranked tool search; a throw rejects the script's `await tools.search(...)` with its message. */
  search(query: ScriptSearchQuery): Promise<unknown>;
  /** One tool's name, server, description and input schema; a throw rejects like `search`. */
  describe(query: ScriptDescribeQuery): Promise<unknown>;
  /** Calls a tool by (prefixed) name; failures are returned as `{ ok: false }`, not thrown. */
  call(path: string, args: Record<string, unknown>, options: ScriptCallOptions): Promise<ScriptCallResult>;
}
