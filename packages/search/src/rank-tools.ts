/**
 * Ranked and regex search over tool metadata, with pagination. Pure and
 * synchronous. The index for a tool list is built once and reused while the
 * same array (and keyword config) is passed again.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { matchToolsByRegex } from "./regex-guard.js";
import { createSearchIndex, type SearchIndex } from "./search-index.js";
import type { SearchKeywords } from "./search-keywords.js";

export interface RankOptions {
  /** Only tools of this server. */
  server?: string;
  /** Page size; default 12. */
  limit?: number;
  /** Hits to skip (from a previous `nextOffset`). */
  offset?: number;
  /**
   * Treat the query as a case-insensitive regular expression (RE2 syntax, see
   * regex-guard.ts): matches in catalog order, unranked. Throws `SearchError`
   * for a pattern it refuses or a scan that runs past its time budget.
   */
  regex?: boolean;
  /**
   * How long a regex search may block, in ms (default `REGEX_BUDGET_MS`, 80).
   * It is wall time: on a busy machine a pattern may be stopped sooner in work done.
   */
  regexBudgetMs?: number;
  /** Per-server extra search words. */
  searchKeywords?: SearchKeywords;
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

const indexes = new WeakMap<readonly ToolMetadata[], { keywords?: SearchKeywords; index: SearchIndex }>();

/** The (cached) index of a tool list. */
export function indexFor(tools: readonly ToolMetadata[], searchKeywords?: SearchKeywords): SearchIndex {
  const cached = indexes.get(tools);
  if (cached && cached.keywords === searchKeywords) return cached.index;
  const index = createSearchIndex(tools, { searchKeywords });
  indexes.set(tools, { keywords: searchKeywords, index });
  return index;
}

export function rankTools(
  query: string,
  tools: readonly ToolMetadata[] | SearchIndex,
  options: RankOptions = {},
): RankResult {
  const list = "score" in tools ? tools.tools : tools;
  const accept = options.server ? (tool: ToolMetadata) => tool.server === options.server : undefined;
  const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  if (options.regex) {
    const all = matchToolsByRegex(query, list, {
      accept,
      searchKeywords: options.searchKeywords,
      budgetMs: options.regexBudgetMs,
    }).map((tool) => ({ tool, score: 0 }));
    return page(all.slice(offset, offset + limit), all.length, offset, limit);
  }
  const index = "score" in tools ? tools : indexFor(tools, options.searchKeywords);
  const { hits, total } = index.score(query, accept, offset + limit);
  const ranked = hits.slice(offset).map(({ doc, score }) => ({ tool: list[doc]!, score }));
  return page(ranked, total, offset, limit);
}

function page(hits: RankedTool[], total: number, offset: number, limit: number): RankResult {
  const next = offset + limit;
  return { hits, total, ...(next < total ? { nextOffset: next } : {}) };
}
