/**
 * Per-request options and how a connection was reached. The shapes servers
 * send (tools, resources, prompts, their results) are core's neutral wire
 * types (`@pi-mcp-adapter/core`), never SDK types.
 */
import type { JsonSchemaObject, TaskSupport } from "@pi-mcp-adapter/core";
import type { TaskUpdate } from "./task-update.js";

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * How long the request may go without an answer or progress; defaults to
   * the server's `requestTimeoutMs` (30 s). Time waiting on the user does not count.
   */
  timeoutMs?: number;
  /** The most the request may take however often it reports progress; defaults to the server's `maxTotalTimeoutMs` (10 min). */
  maxTotalTimeoutMs?: number;
  /** Validate `structuredContent` against this schema (else the one seen in `tools/list`). */
  outputSchema?: JsonSchemaObject;
  /**
   * `callTool` only: receives each progress update of the call (every call
   * sends a progress token). Updates also reach `onNotification` as `progress` events.
   */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * `callTool` only: the tool's `execution.taskSupport` from (cached) metadata,
   * for a connection that has not listed tools itself. With the server's
   * `tasks` mode it decides whether the call runs as a task.
   */
  taskSupport?: TaskSupport;
  /**
   * `callTool` only: when the call runs as a task, hears its id and each
   * status observed (polled, or sent by the server) until it ends. Must not throw.
   */
  onTask?: (update: TaskUpdate) => void;
}

/** How a connection actually reached its server. */
export type ConnectedVia = "stdio" | "streamable-http" | "sse" | "socket" | "custom";

/** What a completion is for: a prompt's argument, or a resource template's variable. */
export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** A `completion/complete` request in neutral form. */
export interface CompletionRequest {
  ref: CompletionRef;
  /** The argument (or template variable) being completed and what the user has typed so far. */
  argument: { name: string; value: string };
  /** Values of arguments already given, so a server can narrow later ones by earlier ones. */
  context?: Record<string, string>;
}

/** The answer to `completion/complete` (at most 100 values, as the protocol caps them). */
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** The server capabilities the client acts on, as the server declared them in `initialize`. */
export interface ServerFeatures {
  tools: boolean;
  /** `tools.listChanged`: the server tells when its tools change, which keeps a listing fresh. */
  toolsListChanged?: boolean;
  prompts: boolean;
  resources: boolean;
  /** `resources.subscribe`: the server accepts `resources/subscribe`. */
  resourceSubscribe: boolean;
  /** The server answers `completion/complete`. */
  completions: boolean;
  /** The server declared the skills extension (SEP-2640, `io.modelcontextprotocol/skills`). */
  skills: boolean;
}
