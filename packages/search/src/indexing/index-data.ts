/**
 * What an index holds of its tools once they are analysed: the postings
 * (BM25F scores per term and tool) and the name words that may be compounds.
 * It is the costly part of an index (each tool's texts tokenized, stemmed and
 * looked up in the lexicon), and all of it is plain data, so it can also be
 * saved and read back (`index-file.ts`) instead of analysed again; what a
 * query needs beside it is cheap to derive (`search-index.ts`).
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { Lexicon } from "../data/lexicon.js";
import { buildPostings, type Postings } from "./postings.js";
import { DESCRIBED, fieldsOf, SURFACE } from "./tool-fields.js";

/**
 * A lexicon word describing more than this share of the tools is left out of the lexicon field: it tells
 * them apart little and costs time on every query that has it (measured: no change in quality). Small
 * catalogs, where it costs nothing, keep every word.
 */
const MAX_DESCRIBED_DOC_SHARE = 0.02;

export interface IndexData {
  readonly postings: Postings;
  /** Name words of 8+ characters, which may be compounds such as `sequentialthinking`. */
  readonly longNameTerms: readonly string[];
  /** Each tool's meaning vector (`semantic-score.ts`), when known ahead (read back with the rest). */
  readonly docVectors?: readonly (Float32Array | null)[];
}

/** Analyses `tools` (with each tool's search keywords) into an index's data. */
export function analyseTools(
  tools: readonly ToolMetadata[],
  keywords: readonly (readonly string[])[],
  lexicon: Lexicon,
  fieldWeights: readonly number[],
): IndexData {
  const fieldTokens = tools.map((tool, doc) => fieldsOf(tool, keywords[doc]!, lexicon));
  const maxDescribedDocs = Math.max(50, tools.length * MAX_DESCRIBED_DOC_SHARE);
  const postings = buildPostings(
    fieldTokens,
    fieldWeights,
    (term, df) => df > maxDescribedDocs && term.startsWith(DESCRIBED),
  );
  const longNameTerms = [
    ...new Set(
      fieldTokens.flatMap((fields) => fields[0]!.filter((t) => !t.startsWith(SURFACE)).slice(0, -1)),
    ),
  ].filter((t) => t.length >= 8);
  return { postings, longNameTerms };
}
