/**
 * Neutral shapes of resources and prompts, so packages above transport never
 * see SDK types (tools use core's `RemoteTool`).
 */
import type { ContentBlock, JsonSchemaObject } from "@pi-mcp-adapter/core";

export interface RemoteResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface RemoteResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface RemotePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface ResourceContents {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
}

export interface PromptResult {
  description?: string;
  messages: { role: "user" | "assistant"; content: ContentBlock }[];
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Per-request timeout; defaults to the server's `requestTimeoutMs` (30 s). */
  timeoutMs?: number;
  /** Validate `structuredContent` against this schema (else the one seen in `tools/list`). */
  outputSchema?: JsonSchemaObject;
}

/** How a connection actually reached its server. */
export type ConnectedVia = "stdio" | "streamable-http" | "sse" | "socket" | "custom";
