/**
 * The raw MCP result for a tool result's `details` (kept in the session
 * file): as is when its JSON is small, else a compact summary and the raw
 * JSON in a spill file — or, for a result of text blocks only whose text
 * was spilled already, that text file (one copy on disk, not two).
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
  | {
      mcpResultSummary: ResultSummary;
      /** The file holding the result: its raw JSON, or its text when `mcpResultFileFormat` is `text`. */
      mcpResultFile?: string;
      /** `text`: the result was text blocks only and the file is the text spill file (no JSON copy). */
      mcpResultFileFormat?: "json" | "text";
      mcpResultFileError?: string;
    };

export async function boundDetails(
  result: ToolCallResult,
  options: {
    maxBytes: number;
    spill: SpillWriter;
    nameHint: string;
    /** The spill file holding the result's whole text, when one was written. */
    textFile?: string;
  },
): Promise<ResultDetails> {
  if (jsonSizeWithin(result, options.maxBytes) !== undefined) return { mcpResult: result };
  const summary = summarize(result);
  if (options.textFile && isTextOnly(result)) {
    return { mcpResultSummary: summary, mcpResultFile: options.textFile, mcpResultFileFormat: "text" };
  }
  try {
    const file = await options.spill.create(options.nameHint, "json");
    summary.jsonBytes = await writeChunks(file, jsonChunks(result));
    return { mcpResultSummary: summary, mcpResultFile: file.path, mcpResultFileFormat: "json" };
  } catch (error) {
    return {
      mcpResultSummary: summary,
      mcpResultFileError: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Text blocks and nothing else (no structured content, no other keys): its text file says it all. */
function isTextOnly(result: ToolCallResult): boolean {
  for (const key in result) if (key !== "content" && key !== "isError") return false;
  const blocks = Array.isArray(result.content) ? result.content : [];
  return blocks.every((block) => {
    for (const key in block ?? {}) if (key !== "type" && key !== "text") return false;
    return block?.type === "text";
  });
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
