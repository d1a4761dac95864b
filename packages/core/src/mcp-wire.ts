/**
 * Neutral shapes of what MCP servers send and ask, independent of which SDK
 * version carried them. Packages above `transport` use these, never SDK types;
 * each shape is defined here once.
 */
import type { JsonSchemaObject, TaskSupport, ToolAnnotations } from "./tool-metadata.js";

/** A tool as listed by `tools/list`. */
export interface RemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
  /** Extension metadata; MCP Apps put `ui` here (see `toolUiOf`). */
  _meta?: Record<string, unknown>;
  /** How the tool runs; `taskSupport` says whether it runs as a task (MCP Tasks). */
  execution?: { taskSupport?: TaskSupport; [key: string]: unknown };
}

/** A resource as listed by `resources/list`. */
export interface RemoteResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A resource template as listed by `resources/templates/list`. */
export interface RemoteResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A prompt as listed by `prompts/list`. */
export interface RemotePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | {
      type: "resource";
      resource: { uri: string; mimeType?: string; text?: string; blob?: string };
    }
  | {
      type: "resource_link";
      uri: string;
      name?: string;
      title?: string;
      description?: string;
      mimeType?: string;
    }
  | { type: string; [key: string]: unknown };

/** The result of `resources/read`. */
export interface ResourceContents {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
}

/** The result of `prompts/get`. */
export interface PromptResult {
  description?: string;
  messages: { role: "user" | "assistant"; content: ContentBlock }[];
}

/** The result of `tools/call`. */
export interface ToolCallResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** `elicitation/create` params: a form to fill in, or (URL mode) a page to visit. */
export type ElicitRequestParams =
  | {
      mode?: "form";
      message: string;
      /** A flat object schema of primitive properties, as the spec restricts it. */
      requestedSchema: JsonSchemaObject;
    }
  | {
      mode: "url";
      message: string;
      url: string;
      /** Present on 2025-era servers; the 2026-07-28 revision correlates through request state. */
      elicitationId?: string;
    };

/** The answer to `elicitation/create`. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  /** The filled-in form, for `accept` in form mode. */
  content?: Record<string, string | number | boolean | string[]>;
}

/** One message in a `sampling/createMessage` conversation. */
export interface SamplingMessage {
  role: "user" | "assistant";
  content: ContentBlock | ContentBlock[];
}

/** `sampling/createMessage` params: the server asks the client's model for a completion. */
export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: "none" | "thisServer" | "allServers";
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  metadata?: Record<string, unknown>;
}

/** The answer to `sampling/createMessage`. */
export interface CreateMessageResult {
  role: "assistant";
  content: ContentBlock;
  /** Name of the model that answered. */
  model: string;
  stopReason?: string;
}

/** A root the client exposes to servers (`roots/list`). */
export interface Root {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}
