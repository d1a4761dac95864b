/**
 * Leave one set out (`bench:search --folds`): the weights that shape how a
 * request is read across kinds of query — how hard a tool is held to covering
 * every query word, how much closeness in meaning adds, how strongly a word
 * naming a server holds to its tools, how much a long request's words found
 * across many servers count, how much feedback from a first pass adds — are chosen on every
 * set but one and scored on the one left out, for each set in turn. A weight
 * that only suits the development set shows here as a held-out loss.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import {
  createSearchIndex,
  DEFAULT_RANKING_WEIGHTS,
  type RankingWeights,
  rankTools,
} from "@pi-mcp-adapter/search";
import { toolKey } from "../eval-data.js";
import { firstRelevantRank, type QualityScores, scoreRanks } from "../metrics.js";
import type { QuerySet } from "./search-sets.js";

/** The weights tried together; every other weight keeps its default. */
export const CROSS_SET_GRID = {
  coverageExponent: [0.5, 0.6, 0.75, 1],
  semantic: [0, 0.5],
  serverWords: [0, 0.5, 1],
  concepts: [0, 1],
  feedback: [0, 0.3],
  serverContext: [0, 0.3],
  serverContextMeaning: [0, 0.3],
} as const satisfies Partial<Record<keyof RankingWeights, readonly number[]>>;

/** Sets smaller than this take no part in choosing (too few queries to tell a weight from noise). */
const MIN_QUERIES = 20;

type Weights = Partial<RankingWeights>;

export interface HeldOutRow {
  set: string;
  chosen: Weights;
  heldOut: QualityScores;
  shipped: QualityScores;
}

type Grid = Partial<Record<keyof RankingWeights, readonly number[]>>;

/** Every point of the grid (each of its weights at each of its values). */
function combinations(grid: Grid): Weights[] {
  let out: Weights[] = [{}];
  for (const [name, values] of Object.entries(grid) as [keyof RankingWeights, readonly number[]][])
    out = out.flatMap((weights) => values.map((value) => ({ ...weights, [name]: value })));
  return out;
}

/** Every set's scores under `weights` (one index per catalog). */
function scoreSets(sets: readonly QuerySet[], weights: Weights): QualityScores[] {
  const indexes = new Map<readonly ToolMetadata[], ReturnType<typeof createSearchIndex>>();
  return sets.map((set) => {
    let index = indexes.get(set.tools);
    if (!index) {
      index = createSearchIndex(set.tools, { weights, serverContext: set.serverContext });
      indexes.set(set.tools, index);
    }
    const ranked = index;
    return scoreRanks(
      set.queries.map((query) =>
        firstRelevantRank(
          rankTools(query.query, ranked, { limit: 10 }).hits.map((h) => toolKey(h.tool)),
          query.relevant,
        ),
      ),
    );
  });
}

/**
 * For each set: the grid point best on the other sets (mean of R@5 + MRR@10 per set), scored on it.
 * `grid` (default `CROSS_SET_GRID`): weights not in it keep their defaults.
 */
export function leaveOneSetOut(sets: readonly QuerySet[], weightGrid: Grid = CROSS_SET_GRID): HeldOutRow[] {
  const grid = combinations(weightGrid).map((weights) => ({ weights, scores: scoreSets(sets, weights) }));
  const shipped = scoreSets(
    sets,
    Object.fromEntries(
      Object.keys(weightGrid).map((name) => [name, DEFAULT_RANKING_WEIGHTS[name as keyof RankingWeights]]),
    ),
  );
  const chooses = sets.map((set) => set.queries.length >= MIN_QUERIES);
  // A set and a part of it share queries: neither chooses when the other is left out.
  const related = (a: QuerySet, b: QuerySet) => a === b || a.partOf === b.name || b.partOf === a.name;
  return sets.map((set, held) => {
    const objective = (scores: QualityScores[]) =>
      scores.reduce(
        (sum, s, k) => (chooses[k] && !related(sets[k]!, set) ? sum + s.recallAt5 + s.mrrAt10 : sum),
        0,
      );
    const best = grid.reduce((a, b) => (objective(b.scores) > objective(a.scores) ? b : a));
    return { set: set.name, chosen: best.weights, heldOut: best.scores[held]!, shipped: shipped[held]! };
  });
}

const triple = (s: QualityScores) =>
  `${s.recallAt1.toFixed(3)} / ${s.recallAt5.toFixed(3)} / ${s.mrrAt10.toFixed(3)}`;

export function formatHeldOut(rows: readonly HeldOutRow[]): string {
  const lines = [
    "| set left out | chosen on the others | held out R@1 / R@5 / MRR@10 | shipped defaults |",
    "|---|---|---:|---:|",
  ];
  for (const row of rows) {
    const chosen = Object.entries(row.chosen)
      .map(([name, value]) => `${name} ${value}`)
      .join(", ");
    lines.push(`| ${row.set} | ${chosen} | ${triple(row.heldOut)} | ${triple(row.shipped)} |`);
  }
  return lines.join("\n");
}
