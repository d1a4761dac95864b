/**
 * The raw MCP result for a tool result's `details` (kept in the session
 * file): as is when its JSON is small, else a compact summary and the raw
 * JSON in a spill file.
 */
import type { ToolCallResult } from "@pi-mcp-adapter/core";
import { jsonChunks, jsonSizeWithin } from "./json-chunks.js";
import type { SpillWriter } from "./spill-writer.js";
import { writeChunks } from "./write-chunks.js";

export interface ResultSummary {
  /** How many content blocks of each type. */
  contentTypes: Record<string, number>;
  isError: boolean;
  /** Top-level keys of `structuredContent`, when present. */
  structuredContentKeys?: string[];
  /** Size of the raw result's JSON. */
  jsonBytes?: number;
}

export type ResultDetails =
  | { mcpResult: ToolCallResult }
  | { mcpResultSummary: ResultSummary; mcpResultFile?: string; mcpResultFileError?: string };

export async function boundDetails(
  result: ToolCallResult,
  options: { maxBytes: number; spill: SpillWriter; nameHint: string },
): Promise<ResultDetails> {
  if (jsonSizeWithin(result, options.maxBytes) !== undefined) return { mcpResult: result };
  const summary = summarize(result);
  try {
    const file = await options.spill.create(options.nameHint, "json");
    summary.jsonBytes = await writeChunks(file, jsonChunks(result));
    return { mcpResultSummary: summary, mcpResultFile: file.path };
  } catch (error) {
    return {
      mcpResultSummary: summary,
      mcpResultFileError: error instanceof Error ? error.message : String(error),
    };
  }
}

function summarize(result: ToolCallResult): ResultSummary {
  const contentTypes: Record<string, number> = {};
  for (const block of Array.isArray(result.content) ? result.content : []) {
    const type = typeof block?.type === "string" ? block.type : "unknown";
    contentTypes[type] = (contentTypes[type] ?? 0) + 1;
  }
  const summary: ResultSummary = { contentTypes, isError: result.isError === true };
  if (result.structuredContent && typeof result.structuredContent === "object") {
    summary.structuredContentKeys = Object.keys(result.structuredContent).slice(0, 50);
  }
  return summary;
}
