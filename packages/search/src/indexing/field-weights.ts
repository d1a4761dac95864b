/**
 * The weights of the ranking — BM25F field weights and length normalisation,
 * and how much lexicon synonyms count — in one place so the benchmark can tune
 * them (on the development queries, cross-validated: apps/bench `--folds`)
 * and callers can override them.
 */

/** How much a term in each field counts (a name word 4× a description word by default), and lexicon synonyms. */
export interface RankingWeights {
  /** The tool's original name, split into words. */
  name: number;
  server: number;
  description: number;
  /** Names of input parameters. */
  paramNames: number;
  /** Descriptions of input parameters. */
  paramDescriptions: number;
  /** Per-server `searchKeywords`. */
  keywords: number;
  /** Words the lexicon relates to the name's words (`refund` → pay, back, money, return). */
  related: number;
  /** A query word's lexicon synonym, relative to the word itself (first sense; later senses less). */
  lexiconSynonym: number;
  /** How much a query word matched only through the lexicon counts toward the share of query words matched. */
  lexiconCoverage: number;
  /** How much closeness in meaning (word vectors) adds, relative to the best lexical score of the query. */
  semantic: number;
  /**
   * How hard a tool is held to matching every query word: the share of query words it matches is raised
   * to this power (1 = in proportion; lower lets a tool that serves one part of a long request rank).
   */
  coverageExponent: number;
  /**
   * How strongly a query word naming a server ("github") holds to that server's tools: other tools are
   * scaled by (server-naming words their server holds + 1) / (server-naming words + 1) to this power.
   */
  serverWords: number;
  /**
   * Key-concept weighting of long requests: each word counts (its server rarity ÷ the request's rarest
   * word's) to this power (0 = every word alike; `rank/concept-weights.ts`).
   */
  concepts: number;
  /** Pseudo-relevance feedback: the weight of the best expansion word drawn from a first pass (0 = none). */
  feedback: number;
  /**
   * What a server's own description and instructions (`serverContext` option) add to its tools, relative to
   * the query's best lexical score (0 = off; `rank/server-context.ts`).
   */
  serverContext: number;
  /**
   * How much a server's own text (`serverContext` option) counts in each of its tools' meaning vectors,
   * relative to the tool's own name and description (0 = not at all; `rank/semantic-score.ts`).
   */
  serverContextMeaning: number;
}

/** Field order inside the index. */
export const FIELDS = [
  "name",
  "server",
  "description",
  "paramNames",
  "paramDescriptions",
  "keywords",
  "related",
] as const satisfies readonly (keyof RankingWeights)[];

export const DEFAULT_RANKING_WEIGHTS: Readonly<RankingWeights> = {
  name: 4,
  server: 1.5,
  description: 1,
  paramNames: 0.7,
  paramDescriptions: 0.15,
  keywords: 1,
  related: 0.15,
  lexiconSynonym: 0.5,
  lexiconCoverage: 0.5,
  semantic: 0.5,
  coverageExponent: 0.75,
  serverWords: 1,
  concepts: 1,
  feedback: 0,
  serverContext: 0.3,
  serverContextMeaning: 0.3,
};

/** BM25 length normalisation per field (0 = none, 1 = full), in `FIELDS` order. */
export const FIELD_LENGTH_NORMALISATION = [0.1, 0, 0.5, 0.5, 0.75, 0.3, 0.3] as const;

/** BM25 term-frequency saturation. */
export const K1 = 1.2;

export function fieldWeightList(weights: Partial<RankingWeights> = {}): number[] {
  return FIELDS.map((field) => weights[field] ?? DEFAULT_RANKING_WEIGHTS[field]);
}
