/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/search` (src/index.ts). */
const ROOT = [
  "DEFAULT_RANKING_WEIGHTS",
  "KeptIndexOptions",
  "KeptToolsKey",
  "Lexicon",
  "MatchConfidence",
  "RELEVANT_SHARE",
  "RankOptions",
  "RankResult",
  "RankedTool",
  "RankingWeights",
  "ResolveResult",
  "SchemaShapeOptions",
  "ScoredDoc",
  "SearchError",
  "SearchErrorCode",
  "SearchIndex",
  "SearchIndexOptions",
  "SearchKeywords",
  "ServerContext",
  "WordVectors",
  "ambiguityMessage",
  "createSearchIndex",
  "englishLexicon",
  "englishWordVectors",
  "prepareSearch",
  "rankTools",
  "renderSchemaShape",
  "resolveToolName",
  "searchIndexBytes",
  "searchIndexBytesMatch",
  "searchIndexFromBytes",
  "searchTools",
  "stem",
  "tokenize",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/search exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });
});
