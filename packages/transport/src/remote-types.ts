/**
 * Per-request options and how a connection was reached. The shapes servers
 * send (tools, resources, prompts, their results) are core's neutral wire
 * types (`@pi-mcp-adapter/core`), never SDK types.
 */
import type { JsonSchemaObject } from "@pi-mcp-adapter/core";

export interface CallOptions {
  signal?: AbortSignal;
  /** Per-request timeout; defaults to the server's `requestTimeoutMs` (30 s). */
  timeoutMs?: number;
  /** Validate `structuredContent` against this schema (else the one seen in `tools/list`). */
  outputSchema?: JsonSchemaObject;
  /**
   * `callTool` only: asks the server for progress (a progress token is sent)
   * and receives each update. Updates also reach `onNotification` as `progress` events.
   */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** How a connection actually reached its server. */
export type ConnectedVia = "stdio" | "streamable-http" | "sse" | "socket" | "custom";
