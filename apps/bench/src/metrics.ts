/** Retrieval metrics over ranked key lists: Recall@k and MRR@10, overall and per query style. */
import type { EvalQuery } from "./eval-data.js";

export interface QualityScores {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  mrrAt10: number;
}

/** 1-based rank of the first relevant key, or undefined when none is ranked. */
export function firstRelevantRank(
  ranked: readonly string[],
  relevant: readonly string[],
): number | undefined {
  const wanted = new Set(relevant);
  const index = ranked.findIndex((key) => wanted.has(key));
  return index < 0 ? undefined : index + 1;
}

export function scoreRanks(ranks: (number | undefined)[]): QualityScores {
  const n = ranks.length || 1;
  const within = (k: number) => ranks.filter((r) => r !== undefined && r <= k).length / n;
  const mrr = ranks.reduce<number>((sum, r) => sum + (r !== undefined && r <= 10 ? 1 / r : 0), 0) / n;
  return { queries: ranks.length, recallAt1: within(1), recallAt5: within(5), mrrAt10: mrr };
}

/** Scores overall (key `all`) and per style. */
export function scoreByStyle(
  queries: readonly EvalQuery[],
  rankOf: (query: EvalQuery) => number | undefined,
): Map<string, QualityScores> {
  const byStyle = new Map<string, (number | undefined)[]>([["all", []]]);
  for (const query of queries) {
    const rank = rankOf(query);
    byStyle.get("all")!.push(rank);
    if (!byStyle.has(query.style)) byStyle.set(query.style, []);
    byStyle.get(query.style)!.push(rank);
  }
  return new Map([...byStyle].map(([style, ranks]) => [style, scoreRanks(ranks)]));
}
