export {
  DEFAULT_SEARCH_LIMIT,
  type RankedTool,
  type RankOptions,
  type RankResult,
  rankTools,
} from "./rank-tools.js";
export { editDistance, type ResolveResult, resolveToolName } from "./resolve-tool-name.js";
export { normalizeName, tokenize } from "./tokenize.js";
