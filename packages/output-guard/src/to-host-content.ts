/**
 * Maps MCP content blocks to the two kinds of content a host shows a model:
 * text and images. Everything else is described in text. This is the
 * unguarded mapping (no caps, no files); `createOutputGuard` builds on it.
 */
import type { ContentBlock, ToolCallResult } from "@pi-mcp-adapter/core";
import { base64DecodedSize } from "./blob-store.js";
import { stripControlSequences } from "./strip-control.js";

export type HostContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface HostResult {
  content: HostContent[];
  isError: boolean;
}

export function toHostContent(result: ToolCallResult): HostResult {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const content = blocks.map(toHostBlock);
  const fallback = emptyResultText(result);
  if (content.length === 0) content.push(text(fallback));
  return { content, isError: result.isError === true };
}

/** The text shown for a result without content blocks. */
export function emptyResultText(result: ToolCallResult): string {
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return "(empty result)";
}

function toHostBlock(block: ContentBlock): HostContent {
  const b = block as Record<string, unknown>;
  switch (block.type) {
    case "text":
      return text(String(b.text ?? ""));
    case "image":
      return { type: "image", data: String(b.data ?? ""), mimeType: String(b.mimeType ?? "") };
    case "audio":
      return text(`[audio ${String(b.mimeType ?? "")}, ${base64DecodedSize(String(b.data ?? ""))} bytes]`);
    case "resource": {
      const resource = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof resource.text === "string") return text(resourceTextBlock(resource, resource.text));
      const size = typeof resource.blob === "string" ? base64DecodedSize(resource.blob) : 0;
      return text(`[resource ${describeResource(resource)}, ${size} bytes]`);
    }
    case "resource_link":
      return text(resourceLinkText(b));
    default:
      return text(`[unsupported content type "${String(block.type)}"]`);
  }
}

/** `uri (mimeType)` for a resource label. */
export function describeResource(resource: Record<string, unknown>): string {
  const mime = typeof resource.mimeType === "string" ? ` (${resource.mimeType})` : "";
  return `${String(resource.uri ?? "")}${mime}`;
}

export function resourceTextBlock(resource: Record<string, unknown>, body: string): string {
  return `[resource ${describeResource(resource)}]\n${body}`;
}

export function resourceLinkText(b: Record<string, unknown>): string {
  const label = [b.title ?? b.name, b.description].filter((v) => typeof v === "string" && v).join(" — ");
  const mime = typeof b.mimeType === "string" ? ` (${b.mimeType})` : "";
  return `[resource link ${String(b.uri ?? "")}${mime}${label ? `: ${label}` : ""}]`;
}

function text(value: string): HostContent {
  return { type: "text", text: stripControlSequences(value) };
}
