/**
 * Maps MCP content blocks to the two kinds of content a host shows a model:
 * text and images. Everything else is described in text.
 */
import type { ContentBlock, ToolCallResult } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "./strip-control.js";

export type HostContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface HostResult {
  content: HostContent[];
  isError: boolean;
}

export function toHostContent(result: ToolCallResult): HostResult {
  const content = result.content.map(toHostBlock);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  if (content.length === 0) content.push({ type: "text", text: "(empty result)" });
  return { content, isError: result.isError === true };
}

function toHostBlock(block: ContentBlock): HostContent {
  const b = block as Record<string, unknown>;
  switch (block.type) {
    case "text":
      return text(String(b.text ?? ""));
    case "image":
      return { type: "image", data: String(b.data), mimeType: String(b.mimeType) };
    case "audio":
      return text(`[audio ${String(b.mimeType)}, ${base64Bytes(String(b.data ?? ""))} bytes]`);
    case "resource": {
      const resource = (b.resource ?? {}) as Record<string, unknown>;
      const uri = String(resource.uri ?? "");
      if (typeof resource.text === "string") return text(`[resource ${uri}]\n${resource.text}`);
      const size = typeof resource.blob === "string" ? base64Bytes(resource.blob) : 0;
      return text(`[resource ${uri}: ${String(resource.mimeType ?? "binary")}, ${size} bytes]`);
    }
    case "resource_link": {
      const label = [b.name ?? b.title, b.description].filter(Boolean).join(" — ");
      return text(`[resource link ${String(b.uri)}${label ? `: ${String(label)}` : ""}]`);
    }
    default:
      return text(`[unsupported content type "${block.type}"]`);
  }
}

function text(value: string): HostContent {
  return { type: "text", text: stripControlSequences(value) };
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
