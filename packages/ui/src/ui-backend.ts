/**
 * What the viewer needs from the adapter: reads of the app's server's
 * resources and calls of its tools. The runtime implements it (tool calls
 * through its call pipeline, with approval origin `ui`, refusing tools whose
 * `_meta.ui.visibility` leaves the app out); tests may implement it directly.
 */

/** One content of a `resources/read`, as the server sent it (`_meta.ui.csp` included). */
export interface UiResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}

/** A tool result as an app receives it (MCP `CallToolResult`). */
export interface UiToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface UiBackend {
  /** `resources/read` on `server`, unchanged (not bounded for a model). */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<{ contents: UiResourceContent[] }>;
  /** Calls `name` on `server` for an app; rejects when the tool is unknown or not callable by apps. */
  callTool(
    server: string,
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<UiToolResult>;
}

/** A call of a tool that has a UI: what opens (or updates) its window. */
export interface UiToolCall {
  serverName: string;
  toolName: string;
  /** The tool's `_meta.ui.resourceUri`. */
  resourceUri: string;
  args: Record<string, unknown>;
  result: UiToolResult;
  /** The tool's definition, given to the app as host context. */
  tool?: { name: string; description?: string; inputSchema: Record<string, unknown> };
}
