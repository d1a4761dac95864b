/**
 * How sure a ranked hit is, from two signals the ranking already computes
 * but does not order by: how much of the query the tool's own words answer
 * (`ScoredDoc.coverage`, synonyms and near spellings at part credit) and how
 * close its meaning is (`ScoredDoc.similarity`). Any shared word or near
 * spelling makes a tool match, so a query no tool serves still has hits;
 * these labels let the reader tell them apart. The cut and floors were chosen
 * over every `bench:search` set plus a set of off-topic requests (apps/bench
 * `search-confidence.ts` prints how often a correct tool falls below each).
 * Labels never reorder hits.
 */
import type { ScoredDoc } from "./scored-doc.js";

/**
 * - `strong`: the tool's words and meaning both answer the query
 * - `weak`: it shares a word or sits near in meaning, no more
 * - `faint`: far below the best hit (under `RELEVANT_SHARE` of its score): not worth showing
 */
export type MatchConfidence = "strong" | "weak" | "faint";

/** A hit under this share of the best hit's score is not counted as relevant. */
export const RELEVANT_SHARE = 0.45;

/** Strong when either signal is this high on its own … */
const SURE_COVERAGE = 0.75;
const SURE_MEANING = 0.75;
/** … or when both reach these. */
const COVERAGE_FLOOR = 0.5;
const MEANING_FLOOR = 0.6;

/** The confidence of `hit` in a result whose best score is `bestScore`. */
export function matchConfidence(hit: ScoredDoc, bestScore: number): MatchConfidence {
  if (hit.score < RELEVANT_SHARE * bestScore) return "faint";
  const coverage = hit.coverage ?? 0;
  const meaning = hit.similarity ?? 0;
  if (coverage >= SURE_COVERAGE || meaning >= SURE_MEANING) return "strong";
  return coverage >= COVERAGE_FLOOR && meaning >= MEANING_FLOOR ? "strong" : "weak";
}

/** How many of `hits` (any order) score within `RELEVANT_SHARE` of the best. */
export function countRelevant(hits: readonly ScoredDoc[]): number {
  let best = 0;
  for (const hit of hits) if (hit.score > best) best = hit.score;
  let count = 0;
  for (const hit of hits) if (hit.score >= RELEVANT_SHARE * best) count++;
  return count;
}
