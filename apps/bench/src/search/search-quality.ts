/**
 * Search quality on the shared eval set: our ranking next to two baselines
 * computed in the same run, over the full 991-tool catalog.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { createSearchIndex, rankTools } from "@pi-mcp-adapter/search";
import { type EvalData, type EvalQuery, toolKey } from "../eval-data.js";
import { firstRelevantRank, type QualityScores, scoreByStyle } from "../metrics.js";
import { createBm25Baseline } from "./baselines/bm25-minisearch.js";
import { keywordScorerRank } from "./baselines/keyword-scorer.js";

export type Ranker = (query: string) => ToolMetadata[];

export interface RankerScores {
  name: string;
  scores: Map<string, QualityScores>;
  misses: { query: EvalQuery; rank: number | undefined; top: string[] }[];
}

export function rankers(
  tools: readonly ToolMetadata[],
  serverContext?: Readonly<Record<string, string>>,
): { name: string; rank: Ranker }[] {
  const ours = createSearchIndex(tools, serverContext ? { serverContext } : {});
  const bm25 = createBm25Baseline(tools);
  return [
    { name: "pi-mcp-adapter", rank: (q) => rankTools(q, ours, { limit: 10 }).hits.map((h) => h.tool) },
    { name: "keyword 10/5/4/3", rank: (q) => keywordScorerRank(q, tools, 10) },
    { name: "BM25 (MiniSearch)", rank: (q) => bm25(q, 10) },
  ];
}

export function evaluate(data: EvalData): RankerScores[] {
  return rankers(data.tools, data.serverContext).map(({ name, rank }) => {
    const misses: RankerScores["misses"] = [];
    const scores = scoreByStyle(data.queries, (query) => {
      const top = rank(query.query).map(toolKey);
      const position = firstRelevantRank(top, query.relevant);
      if (position === undefined || position > 1)
        misses.push({ query, rank: position, top: top.slice(0, 3) });
      return position;
    });
    return { name, scores, misses };
  });
}

export function formatQualityTable(results: RankerScores[]): string {
  const styles = [...results[0]!.scores.keys()];
  const lines = ["| style (queries) | ranker | Recall@1 | Recall@5 | MRR@10 |", "|---|---|---:|---:|---:|"];
  for (const style of styles) {
    for (const result of results) {
      const s = result.scores.get(style)!;
      lines.push(
        `| ${style} (${s.queries}) | ${result.name} | ${s.recallAt1.toFixed(3)} | ${s.recallAt5.toFixed(3)} | ${s.mrrAt10.toFixed(3)} |`,
      );
    }
  }
  return lines.join("\n");
}

/** Metrics where our ranking (first result) does not beat every baseline. */
export function notBeating(results: RankerScores[]): string[] {
  const [ours, ...baselines] = results;
  const out: string[] = [];
  for (const [style, s] of ours!.scores) {
    for (const metric of ["recallAt1", "recallAt5", "mrrAt10"] as const) {
      for (const baseline of baselines) {
        const b = baseline.scores.get(style)![metric];
        if (s[metric] <= b && !(s[metric] === 1 && b === 1))
          out.push(`${style} ${metric}: ${s[metric].toFixed(3)} vs ${baseline.name} ${b.toFixed(3)}`);
      }
    }
  }
  return out;
}
