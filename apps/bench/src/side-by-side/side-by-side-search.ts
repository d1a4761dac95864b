/**
 * Search over the 991 tools of the eval catalog, driven the same way for
 * every column: through the real Pi, one scripted tool call per eval query in
 * one Pi session, warm metadata cache — ours and 2.36 through their `mcp`
 * proxy tool (`mcp({search, limit: 10, includeSchemas: false})`), the
 * built-in through a codemode `searchTools()` script or `tool_search` (see
 * `side-by-side-search-steps.ts`). Quality: the names
 * in each result, in order, scored with Recall@1/5 and MRR@10. Latency: from
 * answering a model request with the search to the next request carrying its
 * result (Pi's tool turn included), median over the queries and the first
 * one of the session alone; Pi alone doing the same turns with its built-in
 * `read` of a one-line file gives the floor of such a turn.
 */
import { writeFileSync } from "node:fs";
import { type ChatRequest, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import type { EvalData } from "../eval-data.js";
import { firstRelevantRank, type QualityScores, scoreRanks } from "../metrics.js";
import { tokens } from "../shell/shell-recording-pi.js";
import { median } from "../transport/transport-measure.js";
import type { AdapterId, BenchProject, TimedRun } from "./side-by-side-project.js";
import { nameIndex, rankedKeys, searchStepFor } from "./side-by-side-search-steps.js";
import { warmCaches } from "./side-by-side-startup.js";

export interface SearchResult {
  queries: number;
  tools: number;
  quality: Partial<Record<AdapterId, QualityScores>>;
  /** Median ms of a search turn through Pi, per adapter; `none` = a built-in `read` turn. */
  turnMs: Record<AdapterId, number>;
  /** The session's first search turn (the adapter's runtime and index are built on first use). */
  firstTurnMs: Partial<Record<AdapterId, number>>;
  /** Tokens of the declared tools and system prompt added over the session's first request, after 1 and 10 searches. */
  declaredAfter: Partial<Record<AdapterId, { one: number; ten: number }>>;
  /** Median characters of one search result. */
  resultChars: Partial<Record<AdapterId, number>>;
}

/** What every request carries besides the conversation: the declared tools and the system prompt, chars / 4. */
export function declaredTokens(request: ChatRequest): number {
  const system = request.messages.filter((m) => m.role === "system" || m.role === "developer");
  return tokens(JSON.stringify({ tools: request.tools ?? [], system }));
}

/** The ranked keys of each search result in a run whose first `queries` steps were searches. */
export function readRankings(run: TimedRun, queries: number, names: Map<string, string>, label: string) {
  if (run.requests.length < queries + 1) {
    throw new Error(`${label}: search session ended after ${run.requests.length} requests`);
  }
  const texts = Array.from({ length: queries }, (_, i) => toolResultTexts(run.requests[i + 1]!).at(-1) ?? "");
  const ranked = texts.map((text) => rankedKeys(text, names).slice(0, 10));
  // A changed output format would read as zero recall: stop instead.
  const unread = ranked.filter((keys) => keys.length === 0).length;
  if (unread > queries / 2) {
    throw new Error(
      `${label}: no tool names read from ${unread} of ${queries} search results; first result:\n${texts[0]!.slice(0, 800)}`,
    );
  }
  return { texts, ranked };
}

/** Per step n (answered at arrivals[n]), the time until request n+1 brought its result. */
function turnTimes(run: TimedRun, steps: number): number[] {
  return Array.from({ length: steps }, (_, i) => run.arrivals[i + 1]! - run.arrivals[i]!);
}

export async function measureSearch(projects: BenchProject[], data: EvalData): Promise<SearchResult> {
  const names = nameIndex(data);
  const quality: SearchResult["quality"] = {};
  const turnMs = {} as Record<AdapterId, number>;
  const firstTurnMs: SearchResult["firstTurnMs"] = {};
  const declaredAfter: SearchResult["declaredAfter"] = {};
  const resultChars: SearchResult["resultChars"] = {};
  await warmCaches(projects, new Set(data.tools.map((t) => t.server)).size);
  for (const p of projects) {
    if (p.adapter.id === "none") {
      const file = p.project.join("one-line.txt");
      writeFileSync(file, "one line\n");
      const read = { toolCall: { name: "read", arguments: { path: file } } };
      const run = await p.run(data.queries.map(() => read));
      turnMs.none = median(turnTimes(run, data.queries.length));
      continue;
    }
    const id = p.adapter.id;
    const run = await p.run(data.queries.map((q) => searchStepFor(id, q.query)));
    const { texts, ranked } = readRankings(run, data.queries.length, names[id], p.adapter.label);
    const ranks = data.queries.map((query, i) => firstRelevantRank(ranked[i]!, query.relevant));
    quality[id] = scoreRanks(ranks);
    const turns = turnTimes(run, data.queries.length);
    turnMs[id] = median(turns);
    firstTurnMs[id] = turns[0];
    const base = declaredTokens(run.requests[0]!);
    declaredAfter[id] = {
      one: declaredTokens(run.requests[1]!) - base,
      ten: declaredTokens(run.requests[Math.min(10, data.queries.length)]!) - base,
    };
    resultChars[id] = median(texts.map((t) => t.length));
  }
  return {
    queries: data.queries.length,
    tools: data.tools.length,
    quality,
    turnMs,
    firstTurnMs,
    declaredAfter,
    resultChars,
  };
}
