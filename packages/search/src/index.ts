export { englishLexicon, type Lexicon } from "./data/lexicon.js";
export { englishWordVectors, type WordVectors } from "./data/word-vectors.js";
export { SearchError, type SearchErrorCode } from "./errors.js";
export {
  type KeptIndexOptions,
  type KeptToolsKey,
  searchIndexBytes,
  searchIndexBytesMatch,
  searchIndexFromBytes,
} from "./index-file.js";
export { DEFAULT_RANKING_WEIGHTS, type RankingWeights } from "./indexing/field-weights.js";
export type { SearchKeywords } from "./indexing/search-keywords.js";
export { prepareSearch } from "./indexing/tool-fields.js";
export { type MatchConfidence, RELEVANT_SHARE } from "./rank/match-confidence.js";
export {
  createSearchIndex,
  type ScoredDoc,
  type SearchIndex,
  type SearchIndexOptions,
} from "./rank/search-index.js";
export type { ServerContext } from "./rank/server-context.js";
export { type RankedTool, type RankOptions, type RankResult, rankTools, searchTools } from "./rank-tools.js";
export { ambiguityMessage, type ResolveResult, resolveToolName } from "./resolve-tool-name.js";
export { renderSchemaShape, type SchemaShapeOptions } from "./schema-shape.js";
export { stem, tokenize } from "./text/tokenize.js";
