/**
 * Pseudo-relevance feedback (RM3-style): the terms that weigh most in the
 * best few tools of a first pass become extra, low-weighted query words of a
 * second pass. A request in the user's words ("summarise today's news") then
 * also meets what the tools it found first are made of (`headline`,
 * `article`), which finds their neighbours. Expansion words never count as
 * words of the query (no coverage), and never repeat one.
 */
import type { Postings } from "../indexing/postings.js";
import { DESCRIBED, SURFACE } from "../indexing/tool-fields.js";
import type { QueryGroup } from "../query/query-terms.js";

/** Tools of the first pass the expansion is drawn from. */
export const FEEDBACK_DOCS = 5;
/** Expansion terms added, at most. */
const FEEDBACK_TERMS = 4;
/** Requests shorter than this get no feedback (a short query says what it wants; expanding it blurs it). */
export const FEEDBACK_MIN_WORDS = 8;

/** Each tool's terms with their scores (the postings turned around), made once per index on first need. */
export interface ForwardIndex {
  terms(doc: number): { ids: Int32Array; scores: Float64Array };
  term(id: number): string;
}

export function forwardIndex(postings: Postings, tools: number): ForwardIndex {
  const { ids, start, docs, scores } = postings;
  const names: string[] = new Array(start.length - 1);
  for (const [term, id] of ids) names[id] = term;
  const count = new Int32Array(tools + 1);
  for (let id = 0; id < names.length; id++) {
    if (names[id] === undefined || names[id]!.startsWith(SURFACE) || names[id]!.startsWith(DESCRIBED))
      continue;
    for (let i = start[id]!; i < start[id + 1]!; i++) count[docs[i]! + 1]!++;
  }
  for (let d = 0; d < tools; d++) count[d + 1]! += count[d]!;
  const at = count.slice();
  const termIds = new Int32Array(count[tools]!);
  const termScores = new Float64Array(count[tools]!);
  for (let id = 0; id < names.length; id++) {
    if (names[id] === undefined || names[id]!.startsWith(SURFACE) || names[id]!.startsWith(DESCRIBED))
      continue;
    for (let i = start[id]!; i < start[id + 1]!; i++) {
      const slot = at[docs[i]!]!++;
      termIds[slot] = id;
      termScores[slot] = scores[i]!;
    }
  }
  return {
    terms: (doc) => ({
      ids: termIds.subarray(count[doc]!, count[doc + 1]!),
      scores: termScores.subarray(count[doc]!, count[doc + 1]!),
    }),
    term: (id) => names[id]!,
  };
}

/**
 * Expansion groups from the best tools of a first pass (`ranked`, best first): each term's share of each
 * tool's score mass, weighted by the tool's score relative to the best, summed; the top terms not already
 * in `queryTerms`, each weighted `weight` × its sum relative to the top term's.
 */
export function feedbackGroups(
  ranked: readonly { doc: number; score: number }[],
  forward: ForwardIndex,
  queryTerms: ReadonlySet<string>,
  weight: number,
): QueryGroup[] {
  if (weight <= 0 || ranked.length === 0) return [];
  const best = ranked[0]!.score;
  const mass = new Map<number, number>();
  for (const { doc, score } of ranked.slice(0, FEEDBACK_DOCS)) {
    const { ids, scores } = forward.terms(doc);
    let total = 0;
    for (const s of scores) total += s;
    if (total <= 0) continue;
    for (let i = 0; i < ids.length; i++) {
      mass.set(ids[i]!, (mass.get(ids[i]!) ?? 0) + (score / best) * (scores[i]! / total));
    }
  }
  const top = [...mass]
    .filter(([id]) => !queryTerms.has(forward.term(id)))
    .sort((a, b) => b[1] - a[1])
    .slice(0, FEEDBACK_TERMS);
  const most = top[0]?.[1] ?? 0;
  return top.map(([id, value]) => [
    { terms: [forward.term(id)], weight: (weight * value) / most, credit: 0 },
  ]);
}

/** The single terms of a query's alternatives (an expansion never repeats one). */
export function termsOf(groups: readonly QueryGroup[]): Set<string> {
  const terms = new Set<string>();
  for (const group of groups)
    for (const alternative of group) for (const term of alternative.terms) terms.add(term);
  return terms;
}
