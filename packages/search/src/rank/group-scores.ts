/**
 * One query word's score in each tool: the best of its alternatives (the
 * word, its stem and surface form, synonyms, near spellings, lexicon terms)
 * per tool, with the coverage credit and sureness of that alternative.
 */
import type { Postings } from "../indexing/postings.js";
import type { QueryGroup } from "../query/query-terms.js";

export interface GroupScratch {
  best: Float64Array;
  /** Coverage credit of the best alternative. */
  credit: Float64Array;
  /** Its credit times its weight (at most 1): how sure that match is. */
  sure: Float64Array;
  sums: Float64Array;
}

/** Best alternative per document for one query word, written into `best` (and its credit into `credit`). */
export function addGroup(
  group: QueryGroup,
  { ids, start, docs, scores }: Postings,
  { best, credit, sure, sums }: GroupScratch,
  touched: number[],
  sumTouched: number[],
): void {
  for (const alternative of group) {
    const share = alternative.credit ?? 1;
    if (alternative.terms.length === 1) {
      const id = ids.get(alternative.terms[0]!);
      if (id === undefined) continue;
      for (let i = start[id]!, end = start[id + 1]!; i < end; i++) {
        const doc = docs[i]!;
        const value = scores[i]! * alternative.weight;
        if (best[doc] === 0) touched.push(doc);
        if (value > best[doc]!) {
          best[doc] = value;
          credit[doc] = share;
          sure[doc] = share * Math.min(alternative.weight, 1);
        }
      }
      continue;
    }
    // A multi-term alternative (an abbreviation, or a stem plus its surface form) scores the sum of its terms.
    const first = sumTouched.length;
    alternative.terms.forEach((term, t) => {
      const termShare = alternative.weight * (alternative.termWeights?.[t] ?? 1);
      const id = ids.get(term);
      if (id === undefined) return;
      for (let i = start[id]!, end = start[id + 1]!; i < end; i++) {
        const doc = docs[i]!;
        if (sums[doc] === 0) sumTouched.push(doc);
        sums[doc]! += scores[i]! * termShare;
      }
    });
    for (let i = first; i < sumTouched.length; i++) {
      const doc = sumTouched[i]!;
      const value = sums[doc]!;
      sums[doc] = 0;
      if (best[doc] === 0) touched.push(doc);
      if (value > best[doc]!) {
        best[doc] = value;
        credit[doc] = share;
        sure[doc] = share * Math.min(alternative.weight, 1);
      }
    }
    sumTouched.length = first;
  }
}
