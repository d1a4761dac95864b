export { SearchError, type SearchErrorCode } from "./errors.js";
export { DEFAULT_RANKING_WEIGHTS, type RankingWeights } from "./field-weights.js";
export { searchIndexBytes, searchIndexBytesMatch, searchIndexFromBytes } from "./index-file.js";
export { englishLexicon, type Lexicon } from "./lexicon.js";
export { type RankedTool, type RankOptions, type RankResult, rankTools, searchTools } from "./rank-tools.js";
export { ambiguityMessage, type ResolveResult, resolveToolName } from "./resolve-tool-name.js";
export { renderSchemaShape, type SchemaShapeOptions } from "./schema-shape.js";
export {
  createSearchIndex,
  type ScoredDoc,
  type SearchIndex,
  type SearchIndexOptions,
} from "./search-index.js";
export type { SearchKeywords } from "./search-keywords.js";
export { stem, tokenize } from "./tokenize.js";
export { prepareSearch } from "./tool-fields.js";
export { englishWordVectors, type WordVectors } from "./word-vectors.js";
