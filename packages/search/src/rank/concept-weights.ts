/**
 * Key-concept weighting for long requests: a query word found across many
 * servers' tools ("help", "information", "latest", "please") says little
 * about which tool a request needs; one found in few servers ("weather",
 * "valorant", "pdf") names it. In a request of `CONCEPT_MIN_WORDS` words or
 * more each word counts (its server rarity ÷ the query's rarest word's)^weight
 * — in its score and in the share of the request a tool covers. Learned from
 * the catalog being searched, nothing from any query set.
 */
import type { Postings } from "../indexing/postings.js";
import type { QueryGroup } from "../query/query-terms.js";

/** Requests shorter than this are read word for word (every word counts fully). */
export const CONCEPT_MIN_WORDS = 8;

/** A word counts at least this share (never nothing: it still tells matching tools apart). */
const MIN_SHARE = 0.1;

/** In how many servers each term occurs, counted on first need. */
export function serverFrequency(postings: Postings, serverOf: Int32Array): (term: string) => number {
  const known = new Map<string, number>();
  const seen = new Int32Array(serverOf.length ? Math.max(...serverOf) + 1 : 0).fill(-1);
  return (term) => {
    let count = known.get(term);
    if (count !== undefined) return count;
    count = 0;
    const id = postings.ids.get(term);
    if (id !== undefined) {
      for (let i = postings.start[id]!; i < postings.start[id + 1]!; i++) {
        const server = serverOf[postings.docs[i]!]!;
        if (seen[server] !== id) {
          seen[server] = id;
          count++;
        }
      }
    }
    known.set(term, count);
    return count;
  };
}

/** Each group's weight (all 1 for a short request or `weight` 0). */
export function conceptWeights(
  groups: readonly QueryGroup[],
  servers: number,
  frequency: (term: string) => number,
  weight: number,
): number[] {
  if (weight <= 0 || groups.length < CONCEPT_MIN_WORDS) return groups.map(() => 1);
  const rarity = groups.map((group) => {
    const count = frequency(group[0]?.terms[0] ?? "");
    return count === 0 ? Number.NaN : Math.log((servers + 1) / count);
  });
  const most = Math.max(...rarity.filter((r) => !Number.isNaN(r)), 0);
  if (most <= 0) return groups.map(() => 1);
  return rarity.map((r) => (Number.isNaN(r) ? 1 : Math.max(r / most, MIN_SHARE) ** weight));
}
