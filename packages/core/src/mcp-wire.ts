/**
 * Neutral shapes of what MCP servers send, independent of which SDK version
 * carried them. Packages above `transport` use these, never SDK types.
 */
import type { JsonSchemaObject, ToolAnnotations } from "./tool-metadata.js";

/** A tool as listed by `tools/list`. */
export interface RemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
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

/** The result of `tools/call`. */
export interface ToolCallResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
