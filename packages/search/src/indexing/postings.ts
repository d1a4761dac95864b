/**
 * The inverted index of BM25F: per term, the tools that hold it and the
 * term's score in each (its field-weighted frequency, saturated, times its
 * IDF). Built on a session's first search, so built lean: every term gets a
 * number, and the tools and scores of all terms sit in two flat typed arrays
 * (term `t` owns the slots `start[t]` to `start[t + 1]`), filled in two
 * passes — no array or object per term, and little for the collector.
 */
import { FIELD_LENGTH_NORMALISATION as FIELD_B, K1 } from "./field-weights.js";

export interface Postings {
  /** Term → its number; a term not in any tool (or dropped) is absent. */
  readonly ids: ReadonlyMap<string, number>;
  /** Where each term's slots begin (one more entry than terms: the end). */
  readonly start: Int32Array;
  /** Tool per slot, ascending within a term. */
  readonly docs: Int32Array;
  /** The term's score in that tool. */
  readonly scores: Float64Array;
}

/** In how many tools `term` occurs (0 when none). */
export function documentFrequency(postings: Postings, term: string): number {
  const id = postings.ids.get(term);
  return id === undefined ? 0 : postings.start[id + 1]! - postings.start[id]!;
}

/**
 * Postings of tools given as their fields' terms (`fieldTokens[doc][field]`),
 * with each field's weight; `drop(term, df)` leaves a term out of `ids` (its
 * slots stay, unreachable).
 */
export function buildPostings(
  fieldTokens: readonly (readonly (readonly string[])[])[],
  fieldWeight: readonly number[],
  drop: (term: string, df: number) => boolean,
): Postings {
  const n = fieldTokens.length;
  let tokenCount = 0;
  const fieldCount = fieldWeight.length;
  const lengthSum = new Float64Array(fieldCount);
  for (const fields of fieldTokens) {
    for (let f = 0; f < fieldCount; f++) {
      const length = fields[f]!.length;
      tokenCount += length;
      lengthSum[f]! += length;
    }
  }
  const avgLength = Array.from(lengthSum, (sum) => sum / Math.max(1, n) || 1);
  // Pass 1: (term, tool, frequency) entries in tool order, one per term a tool holds.
  const ids = new Map<string, number>();
  const entryTerm = new Int32Array(tokenCount);
  const entryDoc = new Int32Array(tokenCount);
  const entryTf = new Float64Array(tokenCount);
  /** Per term: the tool of its last entry and where that entry is. */
  const lastDoc = new Int32Array(tokenCount).fill(-1);
  const lastEntry = new Int32Array(tokenCount);
  const df = new Int32Array(tokenCount + 1);
  let entries = 0;
  for (let doc = 0; doc < n; doc++) {
    const fields = fieldTokens[doc]!;
    for (let f = 0; f < fieldCount; f++) {
      const tokens = fields[f]!;
      const weight = fieldWeight[f]! / (1 - FIELD_B[f]! + (FIELD_B[f]! * tokens.length) / avgLength[f]!);
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i]!;
        let id = ids.get(token);
        if (id === undefined) {
          id = ids.size;
          ids.set(token, id);
        }
        if (lastDoc[id] === doc) entryTf[lastEntry[id]!]! += weight;
        else {
          lastDoc[id] = doc;
          lastEntry[id] = entries;
          entryTerm[entries] = id;
          entryDoc[entries] = doc;
          entryTf[entries] = weight;
          df[id]!++;
          entries++;
        }
      }
    }
  }
  // Pass 2: the entries grouped by term (tool order kept), frequencies turned into scores.
  const terms = ids.size;
  const start = new Int32Array(terms + 1);
  for (let t = 0; t < terms; t++) start[t + 1] = start[t]! + df[t]!;
  const fill = start.slice(0, terms);
  const docs = new Int32Array(entries);
  const scores = new Float64Array(entries);
  const idf = new Float64Array(terms);
  for (let t = 0; t < terms; t++) idf[t] = Math.log(1 + (n - df[t]! + 0.5) / (df[t]! + 0.5));
  for (let e = 0; e < entries; e++) {
    const t = entryTerm[e]!;
    const slot = fill[t]!++;
    const tf = entryTf[e]!;
    docs[slot] = entryDoc[e]!;
    scores[slot] = (idf[t]! * tf * (K1 + 1)) / (K1 + tf);
  }
  for (const [term, id] of ids) if (drop(term, df[id]!)) ids.delete(term);
  return { ids, start, docs, scores };
}
