/**
 * Every query set `bench:search` knows, scored in one run and shown in one
 * table: the development set and LiveMCPBench from the shared eval folder,
 * and the query files in `fixtures/` (check, particle, agent-style, the
 * issue's examples). Each set names its catalog and whether anyone tuned on
 * it, so a figure is read with that in mind.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { type EvalData, type EvalQuery, loadEvalData, loadQueries } from "../eval-data.js";
import type { QualityScores } from "../metrics.js";
import { evaluate, type RankerScores } from "./search-quality.js";

export interface QuerySet {
  /** Short name in tables. */
  name: string;
  /** Where the queries come from, and whether a weight was ever chosen on them. */
  origin: string;
  tools: readonly ToolMetadata[];
  queries: readonly EvalQuery[];
  /** Per server, what it says about itself (title, description, instructions), as the host would pass it. */
  serverContext: Readonly<Record<string, string>>;
  /** The set whose queries these are a part of (not an independent opinion beside it). */
  partOf?: string;
}

const fixture = (file: string) => fileURLToPath(new URL(`../../fixtures/${file}`, import.meta.url));

/** Fixture query files over the development catalog: name, file, origin. */
const FIXTURE_SETS = [
  ["check", "search-check-queries.jsonl", "40 task requests for random tools, 2026-12-01; never tuned on"],
  ["particle", "search-particle-queries.jsonl", "20 verb…particle requests, 2026-12-02; checked one change"],
  ["agent", "search-agent-queries.jsonl", "46 agent-style requests, 2026-12-06, written before any run"],
  ["issue-37", "search-issue-queries.jsonl", "the issue's agent queries that missed (seen while working)"],
] as const;

/**
 * The eval catalog's servers that apps/e2e also runs as published packages. A catalog of only these
 * (231 tools) is the size of a real user's: the agent-style queries over it are scored as a set of their own.
 */
const PUBLISHED_SERVERS = new Set([
  "chrome-devtools",
  "context7",
  "everything",
  "filesystem",
  "firecrawl",
  "gitlab",
  "memory",
  "mongodb",
  "notion",
  "playwright",
  "sentry",
  "sequential-thinking",
  "tavily",
]);

/** Queries of `queries` with a relevant tool on `servers`, over those servers' tools. */
function onServers(
  tools: readonly ToolMetadata[],
  queries: readonly EvalQuery[],
  servers: ReadonlySet<string>,
) {
  const within = (key: string) => servers.has(key.slice(0, key.indexOf("/")));
  return {
    tools: tools.filter((tool) => servers.has(tool.server)),
    queries: queries
      .map((query) => ({ ...query, relevant: query.relevant.filter(within) }))
      .filter((query) => query.relevant.length > 0),
  };
}

/**
 * What each LiveMCPBench server says about itself (its entry's name and description in LiveMCPBench's
 * tool list), derived by `fixtures/livemcpbench-servers.mjs`: the shared catalog keeps only `serverInfo`.
 */
function liveServerContext(): Record<string, string> {
  const servers = JSON.parse(readFileSync(fixture("livemcpbench-servers.json"), "utf8")) as Record<
    string,
    { title: string; description: string }
  >;
  return Object.fromEntries(
    Object.entries(servers).map(([server, { title, description }]) => [server, `${title}\n${description}`]),
  );
}

/** The sets, development set first; LiveMCPBench only when `external/` is there. */
export function loadQuerySets(dev: EvalData = loadEvalData()): QuerySet[] {
  const sets: QuerySet[] = [
    {
      name: "dev",
      origin: "shared/eval, weights tuned on it",
      tools: dev.tools,
      queries: dev.queries,
      serverContext: dev.serverContext,
    },
  ];
  const external = join(dev.dir, "external");
  if (existsSync(join(external, "queries.jsonl"))) {
    const live = loadEvalData(external, "queries.jsonl");
    sets.push({
      name: "LiveMCPBench",
      origin: "94 long tasks over 527 other tools (Apache-2.0)",
      tools: live.tools,
      queries: live.queries,
      serverContext: { ...live.serverContext, ...liveServerContext() },
    });
  }
  for (const [name, file, origin] of FIXTURE_SETS) {
    sets.push({
      name,
      origin,
      tools: dev.tools,
      queries: loadQueries(fixture(file)),
      serverContext: dev.serverContext,
    });
  }
  const agent = sets.find((set) => set.name === "agent")!;
  sets.push({
    name: "agent-13",
    origin: "the agent queries over only the 13 servers apps/e2e pins (a user-sized catalog)",
    partOf: "agent",
    serverContext: dev.serverContext,
    ...onServers(dev.tools, agent.queries, PUBLISHED_SERVERS),
  });
  return sets;
}

export interface SetScores {
  set: QuerySet;
  results: RankerScores[];
}

export function evaluateSets(sets: readonly QuerySet[]): SetScores[] {
  return sets.map((set) => ({
    set,
    results: evaluate({
      dir: "",
      tools: [...set.tools],
      queries: [...set.queries],
      serverContext: { ...set.serverContext },
    }),
  }));
}

const triple = (s: QualityScores) =>
  `${s.recallAt1.toFixed(3)} / ${s.recallAt5.toFixed(3)} / ${s.mrrAt10.toFixed(3)}`;

/** One row per set: ours and each baseline, R@1 / R@5 / MRR@10 over all its queries. */
export function formatSetsTable(scored: readonly SetScores[]): string {
  const rankers = scored[0]?.results.map((r) => r.name) ?? [];
  const lines = [
    `| set (queries / tools) | ${rankers.map((r) => `${r} R@1 / R@5 / MRR@10`).join(" | ")} | origin |`,
    `|---|${rankers.map(() => "---:").join("|")}|---|`,
  ];
  for (const { set, results } of scored) {
    const cells = results.map((r) => triple(r.scores.get("all")!));
    lines.push(
      `| ${set.name} (${set.queries.length} / ${set.tools.length}) | ${cells.join(" | ")} | ${set.origin} |`,
    );
  }
  return lines.join("\n");
}
