/**
 * Search over the 991 tools of the eval catalog, driven the same way for
 * both adapters: through the real Pi and each adapter's `mcp` proxy tool
 * (`mcp({search, limit: 10, includeSchemas: false})`), one scripted tool call
 * per eval query in one Pi session, warm metadata cache. Quality: the names
 * in each result, in order, scored with Recall@1/5 and MRR@10. Latency: from
 * answering a model request with the search to the next request carrying its
 * result (Pi's tool turn included), median over the queries and the first
 * one of the session alone; Pi alone doing the same turns with its built-in
 * `read` of a one-line file gives the floor of such a turn.
 */
import { writeFileSync } from "node:fs";
import { prefixedToolName } from "@pi-mcp-adapter/core";
import { toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { formatToolName } from "pi-mcp-adapter-ref/types";
import { type EvalData, toolKey } from "./eval-data.js";
import { firstRelevantRank, type QualityScores, scoreRanks } from "./metrics.js";
import type { AdapterId, BenchProject, TimedRun } from "./side-by-side-project.js";
import { searchStep } from "./side-by-side-project.js";
import { warmCaches } from "./side-by-side-startup.js";
import { median } from "./transport-measure.js";

export interface SearchResult {
  queries: number;
  tools: number;
  quality: Partial<Record<AdapterId, QualityScores>>;
  /** Median ms of a search turn through Pi, per adapter; `none` = a built-in `read` turn. */
  turnMs: Record<AdapterId, number>;
  /** The session's first search turn (the adapter's runtime and index are built on first use). */
  firstTurnMs: Partial<Record<AdapterId, number>>;
}

/** The name each adapter shows for a tool, back to the eval's `server/tool` key. */
function nameIndex(data: EvalData): Record<"ours" | "ref", Map<string, string>> {
  const ours = new Map<string, string>();
  const ref = new Map<string, string>();
  for (const tool of data.tools) {
    ours.set(prefixedToolName(tool.server, tool.name), toolKey(tool));
    ref.set(formatToolName(tool.name, tool.server, "server"), toolKey(tool));
  }
  return { ours, ref };
}

/** The tool names of a search result, in order: each hit is a line `- <name>: …` (ours) or `- <name> - …` (2.36). */
function rankedKeys(text: string, names: Map<string, string>): string[] {
  const keys: string[] = [];
  for (const line of text.split("\n")) {
    const name = /^- ([^\s:]+)/.exec(line)?.[1];
    const key = name === undefined ? undefined : names.get(name);
    if (key !== undefined && !keys.includes(key)) keys.push(key);
  }
  return keys;
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
    const run = await p.run(data.queries.map((q) => searchStep(q.query)));
    if (run.requests.length < data.queries.length + 1) {
      throw new Error(`${p.adapter.label}: search session ended after ${run.requests.length} requests`);
    }
    const texts = data.queries.map((_, i) => toolResultTexts(run.requests[i + 1]!).at(-1) ?? "");
    const ranked = texts.map((text) => rankedKeys(text, names[id]).slice(0, 10));
    // A changed output format would read as zero recall: stop instead.
    const unread = ranked.filter((keys) => keys.length === 0).length;
    if (unread > data.queries.length / 2) {
      throw new Error(
        `${p.adapter.label}: no tool names read from ${unread} of ${data.queries.length} search results; first result:\n${texts[0]!.slice(0, 800)}`,
      );
    }
    const ranks = data.queries.map((query, i) => firstRelevantRank(ranked[i]!, query.relevant));
    quality[id] = scoreRanks(ranks);
    const turns = turnTimes(run, data.queries.length);
    turnMs[id] = median(turns);
    firstTurnMs[id] = turns[0];
  }
  return { queries: data.queries.length, tools: data.tools.length, quality, turnMs, firstTurnMs };
}
