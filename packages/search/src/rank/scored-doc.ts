/** One tool's place in a ranking: what `SearchIndex.score` returns per hit, and what match confidence reads. */
export interface ScoredDoc {
  doc: number;
  score: number;
  /**
   * Share of the query's words (by weight, 0–1) the tool matched, synonyms
   * and near spellings at their partial credit; 1 for a query of no words.
   * It does not order hits: it tells how sure a hit is (`match-confidence.ts`).
   */
  coverage?: number;
  /** Cosine of query and tool meaning (0–1), for the best hits the meaning step reordered. */
  similarity?: number;
}
