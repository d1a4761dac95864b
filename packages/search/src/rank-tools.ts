/**
 * Weighted keyword ranking over tool metadata. Pure and synchronous.
 *
 * Each query word scores against the tool's name tokens, server name and
 * description; a tool must match at least one word to be returned.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { normalizeName, tokenize } from "./tokenize.js";

export interface RankOptions {
  /** Only tools of this server. */
  server?: string;
  /** Page size; default 12. */
  limit?: number;
  offset?: number;
}

export interface RankedTool {
  tool: ToolMetadata;
  score: number;
}

export interface RankResult {
  hits: RankedTool[];
  /** Total number of matching tools. */
  total: number;
  /** Offset of the next page, when there is one. */
  nextOffset?: number;
}

export const DEFAULT_SEARCH_LIMIT = 12;

const WEIGHT = { exactName: 12, nameToken: 6, namePrefix: 3, server: 2, description: 2 } as const;

export function rankTools(
  query: string,
  tools: readonly ToolMetadata[],
  options: RankOptions = {},
): RankResult {
  const words = tokenize(query);
  const whole = normalizeName(query);
  const limit = Math.max(1, options.limit ?? DEFAULT_SEARCH_LIMIT);
  const offset = Math.max(0, options.offset ?? 0);
  const scored: RankedTool[] = [];
  for (const tool of tools) {
    if (options.server && tool.server !== options.server) continue;
    const score = scoreTool(tool, words, whole);
    if (score > 0) scored.push({ tool, score });
  }
  scored.sort((a, b) => b.score - a.score || a.tool.prefixedName.localeCompare(b.tool.prefixedName));
  const hits = scored.slice(offset, offset + limit);
  const next = offset + limit;
  return { hits, total: scored.length, ...(next < scored.length ? { nextOffset: next } : {}) };
}

function scoreTool(tool: ToolMetadata, words: string[], whole: string): number {
  let score = 0;
  if (whole && (normalizeName(tool.name) === whole || normalizeName(tool.prefixedName) === whole)) {
    score += WEIGHT.exactName;
  }
  const nameTokens = new Set(tokenize(tool.name));
  const serverTokens = new Set(tokenize(tool.server));
  const descriptionTokens = new Set(tokenize(tool.description));
  for (const word of words) {
    if (nameTokens.has(word)) score += WEIGHT.nameToken;
    else if (word.length >= 3 && [...nameTokens].some((t) => t.startsWith(word))) score += WEIGHT.namePrefix;
    if (serverTokens.has(word)) score += WEIGHT.server;
    if (descriptionTokens.has(word)) score += WEIGHT.description;
  }
  return score;
}
