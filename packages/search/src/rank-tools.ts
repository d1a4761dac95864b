/**
 * Ranked and regex search over tool metadata, with pagination. `rankTools`
 * is pure and synchronous; `searchTools` is the same for a host that must
 * stay responsive (a regex scan yields between slices). The index for a tool
 * list is built once and reused while the same array (and keyword config) is
 * passed again.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { SearchKeywords } from "./indexing/search-keywords.js";
import { type MatchConfidence, matchConfidence } from "./rank/match-confidence.js";
import { createSearchIndex, type SearchIndex } from "./rank/search-index.js";
import { matchToolsByRegex, matchToolsByRegexInSlices } from "./regex-guard.js";

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
  /**
   * Ranked search: leave `faint` hits out (under `RELEVANT_SHARE` of the best
   * score), so `total` and `nextOffset` count only the relevant ones; what a
   * reader is shown. The order is the same either way.
   */
  relevantOnly?: boolean;
}

export interface RankedTool {
  tool: ToolMetadata;
  score: number;
  /** How sure the match is (ranked search only; see `MatchConfidence`). It never changes the order. */
  confidence?: MatchConfidence;
}

export interface RankResult {
  hits: RankedTool[];
  /** Total number of matching tools (sharing any word or near spelling with a ranked query). */
  total: number;
  /**
   * Ranked search: how many of them score within `RELEVANT_SHARE` of the best
   * (hits past them are `faint`). Absent for a regex search, whose every match counts.
   */
  relevant?: number;
  /** With `relevantOnly`: every tool sharing a word, faint ones included (`total` is then `relevant`). */
  matched?: number;
  /** Ranked search: strong hits up to the end of this page (earlier pages too); 0 means nothing matched well. */
  strong?: number;
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
  if (options.regex) {
    const all = matchToolsByRegex(query, listOf(tools), {
      accept: acceptOf(options),
      searchKeywords: options.searchKeywords,
      budgetMs: options.regexBudgetMs,
    });
    return regexPage(all, options);
  }
  return ranked(query, tools, options);
}

/**
 * `rankTools` for a host's event loop: a `regex` search scans in slices of
 * ~10 ms and yields between them (never holding the loop for longer), and
 * stops with `regex_too_slow` after 2 s; ranked search is as `rankTools`.
 */
export async function searchTools(
  query: string,
  tools: readonly ToolMetadata[] | SearchIndex,
  options: Omit<RankOptions, "regexBudgetMs"> = {},
): Promise<RankResult> {
  if (!options.regex) return ranked(query, tools, options);
  const all = await matchToolsByRegexInSlices(query, listOf(tools), {
    accept: acceptOf(options),
    searchKeywords: options.searchKeywords,
  });
  return regexPage(all, options);
}

function ranked(
  query: string,
  tools: readonly ToolMetadata[] | SearchIndex,
  options: RankOptions,
): RankResult {
  const list = listOf(tools);
  const { limit, offset } = window(options);
  const index = "score" in tools ? tools : indexFor(tools, options.searchKeywords);
  const { hits, total, relevant } = index.score(query, acceptOf(options), offset + limit);
  const best = hits[0]?.score ?? 0;
  const all = hits.map((hit) => ({
    tool: list[hit.doc]!,
    score: hit.score,
    confidence: matchConfidence(hit, best),
  }));
  const strong = all.filter((hit) => hit.confidence === "strong").length;
  const ranked = all.slice(offset);
  if (!options.relevantOnly) return { ...page(ranked, total, offset, limit), relevant, strong };
  const shown = ranked.filter((hit) => hit.confidence !== "faint");
  return { ...page(shown, relevant, offset, limit), relevant, matched: total, strong };
}

/** The tools of a list or of an index. */
function listOf(tools: readonly ToolMetadata[] | SearchIndex): readonly ToolMetadata[] {
  return "score" in tools ? tools.tools : tools;
}

function regexPage(all: readonly ToolMetadata[], options: RankOptions): RankResult {
  const { limit, offset } = window(options);
  const hits = all.slice(offset, offset + limit).map((tool) => ({ tool, score: 0 }));
  return page(hits, all.length, offset, limit);
}

function acceptOf(options: RankOptions): ((tool: ToolMetadata) => boolean) | undefined {
  const { server } = options;
  return server ? (tool: ToolMetadata) => tool.server === server : undefined;
}

function window(options: RankOptions): { limit: number; offset: number } {
  return {
    limit: Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)),
    offset: Math.max(0, Math.floor(options.offset ?? 0)),
  };
}

function page(hits: RankedTool[], total: number, offset: number, limit: number): RankResult {
  const next = offset + limit;
  return { hits, total, ...(next < total ? { nextOffset: next } : {}) };
}
