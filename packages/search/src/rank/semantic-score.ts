/**
 * A meaning-based nudge for lexical matches: the query and each matched tool
 * (name and description) become the weighted average of their words' vectors
 * (rare words count more, stop words not at all), and the cosine of the two
 * raises the tool's score. Task-style queries ("give a customer their money
 * back") then rank the tool that does it (`create_refund`) above tools that
 * merely share a word. A server's own text (`serverContext`), when given,
 * joins each of its tools' vectors at `serverContextMeaning` of their weight.
 * It only reorders tools the words already found, and
 * only the best `RERANKED` of them, so it never adds noise to the results or
 * cost that grows with the catalog.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { WordVectors } from "../data/word-vectors.js";
import { stem, tokenize } from "../text/tokenize.js";
import { isStopWord } from "../text/vocabulary.js";
import { topK } from "./top-k.js";

/** How many of the best lexical matches are reordered. */
export const RERANKED = 100;

export interface SemanticScorer {
  /** The query's vector, or undefined when none of its words has one. */
  query(text: string): Float32Array | undefined;
  /** Cosine (clamped at 0) between a query vector and tool `doc`, from its name and description. */
  similarity(query: Float32Array, doc: number): number;
  /** Tool `doc`'s vector (made on first need), or null when none of its words has one. */
  docVector(doc: number): Float32Array | null;
}

/**
 * `documentFrequency(stem)` says in how many tools a stemmed word occurs, for
 * the rare-words-count-more weighting; `loadVectors` is called on first use.
 * `known`: the tools' vectors as an earlier scorer of the same tools made them (read back from a file).
 * `context`: each server's own text (`serverContext`), mixed into each of its tools' vectors at `weight`.
 */
export function createSemanticScorer(
  tools: readonly ToolMetadata[],
  documentFrequency: (stemmed: string) => number,
  loadVectors: () => WordVectors,
  known?: readonly (Float32Array | null)[],
  context?: { textOf: (server: string) => string | undefined; weight: number },
): SemanticScorer {
  const docVectors: (Float32Array | null | undefined)[] = known ? [...known] : new Array(tools.length);
  const weights = new Map<string, number>();
  let vectors: WordVectors | undefined;
  const weight = (word: string) => {
    let value = weights.get(word);
    if (value === undefined) {
      const idf = Math.log((tools.length + 1) / (documentFrequency(stem(word)) + 1)) + 1;
      value = idf * idf;
      weights.set(word, value);
    }
    return value;
  };
  /** The rarity-weighted sum of the words' vectors, or undefined when none of them has one. */
  const sumOf = (words: readonly string[]): Float64Array | undefined => {
    vectors ??= loadVectors();
    const sum = new Float64Array(vectors.dims);
    let any = false;
    for (const word of words) {
      if (isStopWord(word)) continue;
      const vector = vectors.vector(word);
      if (!vector) continue;
      any = true;
      const w = weight(word);
      for (let d = 0; d < sum.length; d++) sum[d]! += vector[d]! * w;
    }
    return any ? sum : undefined;
  };
  const unit = (sum: Float64Array): Float32Array => {
    const length = norm(sum) || 1;
    return Float32Array.from(sum, (value) => value / length);
  };
  const embed = (words: readonly string[]): Float32Array | undefined => {
    const sum = sumOf(words);
    return sum && unit(sum);
  };
  const serverSums = new Map<string, Float64Array | undefined>();
  const serverSum = (server: string): Float64Array | undefined => {
    if (!serverSums.has(server)) {
      const text = context?.textOf(server);
      serverSums.set(server, text ? sumOf(tokenize(text)) : undefined);
    }
    return serverSums.get(server);
  };
  const docVector = (doc: number): Float32Array | null => {
    let vector = docVectors[doc];
    if (vector === undefined) {
      const tool = tools[doc]!;
      const own = sumOf([...tokenize(tool.name), ...tokenize(tool.description ?? "")]);
      const server = own && context && context.weight > 0 ? serverSum(tool.server) : undefined;
      // The server's text counts `weight` × as much as the tool's own words, whatever its length.
      if (own && server) {
        const scale = (context!.weight * norm(own)) / (norm(server) || 1);
        for (let d = 0; d < own.length; d++) own[d]! += server[d]! * scale;
      }
      vector = own ? unit(own) : null;
      docVectors[doc] = vector;
    }
    return vector;
  };
  return {
    query: (text) => embed(tokenize(text)),
    docVector,
    similarity(query, doc) {
      const vector = docVector(doc);
      if (!vector) return 0;
      let dot = 0;
      for (let d = 0; d < vector.length; d++) dot += vector[d]! * query[d]!;
      return Math.max(dot, 0);
    },
  };
}

/**
 * Raises each of the best `RERANKED` hits by `weight` × the best lexical score
 * × its similarity to the query (in place). Similarities are never negative,
 * so hits below the reordered ones stay below them.
 */
export function nudgeByMeaning(
  hits: { doc: number; score: number; similarity?: number }[],
  query: string,
  scorer: SemanticScorer,
  weight: number,
): void {
  if (hits.length === 0 || weight <= 0) return;
  const vector = scorer.query(query);
  if (!vector) return;
  const best = topK(hits, Math.min(RERANKED, hits.length), (a, b) => b.score - a.score);
  const scale = weight * best[0]!.score;
  const floor = best.at(-1)!.score;
  for (const hit of hits) {
    if (hit.score < floor) continue;
    hit.similarity = scorer.similarity(vector, hit.doc);
    hit.score += scale * hit.similarity;
  }
}

function norm(vector: Float64Array): number {
  let sum = 0;
  for (let d = 0; d < vector.length; d++) sum += vector[d]! * vector[d]!;
  return Math.sqrt(sum);
}
