/**
 * Two-fold cross-validation of the ranking's tuned weights on the development
 * queries (`bench:search --folds`). The queries are split in two halves,
 * stratified by style with a fixed seed; the weights are tuned on one half by
 * a small grid search and scored on the other, then the halves swap. The
 * held-out figures say how much of a gain is the ranking and how much is the
 * tuning having seen the queries.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import {
  createSearchIndex,
  DEFAULT_RANKING_WEIGHTS,
  type RankingWeights,
  rankTools,
} from "@pi-mcp-adapter/search";
import { type EvalData, type EvalQuery, toolKey } from "../eval-data.js";
import { firstRelevantRank, type QualityScores, scoreByStyle } from "../metrics.js";

export const FOLD_SEED = 20261201;

/** The weights the grid search tries; every other weight keeps its default. */
export const WEIGHT_GRID = {
  related: [0, 0.1, 0.15, 0.25, 0.4],
  lexiconSynonym: [0, 0.25, 0.5],
  lexiconCoverage: [0.25, 0.5, 1],
  paramDescriptions: [0.15, 0.3, 0.5],
  semantic: [0, 0.25, 0.5, 0.75],
} as const satisfies Partial<Record<keyof RankingWeights, readonly number[]>>;

type Weights = Partial<RankingWeights>;

/** A small deterministic PRNG (mulberry32), so the split is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two halves of the queries, each style split evenly between them (shuffled with `seed`). */
export function splitFolds(queries: readonly EvalQuery[], seed = FOLD_SEED): [EvalQuery[], EvalQuery[]] {
  const next = random(seed);
  const halves: [EvalQuery[], EvalQuery[]] = [[], []];
  const styles = [...new Set(queries.map((q) => q.style))].sort();
  let turn = 0;
  for (const style of styles) {
    const shuffled = queries.filter((q) => q.style === style);
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    // Alternating, continued across styles, keeps odd-sized styles from all landing in one half.
    for (const query of shuffled) halves[turn++ % 2]!.push(query);
  }
  return halves;
}

export function scoreWeights(
  tools: readonly ToolMetadata[],
  queries: readonly EvalQuery[],
  weights: Weights,
  wordKnowledge = true,
): Map<string, QualityScores> {
  // Without word knowledge: neither the WordNet lexicon nor the word vectors, the ranking on words alone.
  const index = createSearchIndex(tools, {
    weights,
    ...(wordKnowledge ? {} : { lexicon: false, wordVectors: false }),
  });
  return scoreByStyle(queries, (query) => {
    const top = rankTools(query.query, index, { limit: 10 }).hits.map((h) => toolKey(h.tool));
    return firstRelevantRank(top, query.relevant);
  });
}

/** What the grid search maximises: Recall@5 plus MRR@10 over all queries of a half. */
function objective(scores: Map<string, QualityScores>): number {
  const all = scores.get("all")!;
  return all.recallAt5 + all.mrrAt10;
}

function* gridPoints(): Generator<Weights> {
  const entries = Object.entries(WEIGHT_GRID) as [keyof RankingWeights, readonly number[]][];
  const walk = function* (i: number, point: Weights): Generator<Weights> {
    if (i === entries.length) {
      yield { ...point };
      return;
    }
    const [key, values] = entries[i]!;
    for (const value of values) yield* walk(i + 1, { ...point, [key]: value });
  };
  yield* walk(0, {});
}

/** The grid point that scores best on `queries`; ties go to the point nearest the defaults. */
export function tuneWeights(tools: readonly ToolMetadata[], queries: readonly EvalQuery[]): Weights {
  let best: { weights: Weights; score: number; distance: number } | undefined;
  for (const weights of gridPoints()) {
    const score = objective(scoreWeights(tools, queries, weights));
    const distance = Object.entries(weights).reduce(
      (sum, [key, value]) => sum + Math.abs(value - DEFAULT_RANKING_WEIGHTS[key as keyof RankingWeights]),
      0,
    );
    if (
      !best ||
      score > best.score + 1e-9 ||
      (Math.abs(score - best.score) <= 1e-9 && distance < best.distance)
    )
      best = { weights, score, distance };
  }
  return best!.weights;
}

export interface FoldReport {
  fold: string;
  tunedOn: number;
  tuned: Weights;
  /**
   * Held-out half: without the lexicon; the shipped defaults (chosen on all the development queries, so
   * not a held-out figure); weights tuned on the other half only (the held-out figure).
   */
  rows: { variant: string; scores: Map<string, QualityScores> }[];
}

export function crossValidate(data: EvalData, seed = FOLD_SEED): FoldReport[] {
  const [a, b] = splitFolds(data.queries, seed);
  return [
    [a, b, "A"],
    [b, a, "B"],
  ].map(([train, test, name]) => {
    const tuned = tuneWeights(data.tools, train as EvalQuery[]);
    const held = test as EvalQuery[];
    return {
      fold: `${name} (${held.length} held-out queries)`,
      tunedOn: (train as EvalQuery[]).length,
      tuned,
      rows: [
        { variant: "words only (no lexicon, no vectors)", scores: scoreWeights(data.tools, held, {}, false) },
        { variant: "shipped defaults (seen)", scores: scoreWeights(data.tools, held, {}) },
        { variant: "tuned on the other half", scores: scoreWeights(data.tools, held, tuned) },
      ],
    };
  });
}

export function formatFolds(reports: FoldReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(
      `Fold ${report.fold}; tuned on the other ${report.tunedOn}: ${JSON.stringify(report.tuned)}`,
      "",
      "| style (queries) | variant | Recall@1 | Recall@5 | MRR@10 |",
      "|---|---|---:|---:|---:|",
    );
    for (const style of report.rows[0]!.scores.keys()) {
      for (const { variant, scores } of report.rows) {
        const s = scores.get(style)!;
        lines.push(
          `| ${style} (${s.queries}) | ${variant} | ${s.recallAt1.toFixed(3)} | ${s.recallAt5.toFixed(3)} | ${s.mrrAt10.toFixed(3)} |`,
        );
      }
    }
    lines.push("");
  }
  return lines.join("\n");
}
