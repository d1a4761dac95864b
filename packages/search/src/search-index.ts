/**
 * An inverted index over tool metadata, scored with BM25F: each field has a
 * weight and its own length normalisation, term frequencies are combined
 * across fields before saturation, and rare terms count more (IDF). Query
 * words are stemmed and expanded by `query-terms.ts` (synonyms, abbreviations,
 * typos, prefixes, compound names); tools matching more of the query's words
 * rank higher, and a query that spells a tool's name (in any casing or
 * separator style) puts that tool first, as does (less strongly) one holding a
 * multi-word `searchKeywords` entry as an exact phrase. Pure and synchronous.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import {
  DEFAULT_RANKING_WEIGHTS,
  FIELD_LENGTH_NORMALISATION as FIELD_B,
  fieldWeightList,
  K1,
  type RankingWeights,
} from "./field-weights.js";
import { describingStems, englishLexicon, type Lexicon, noLexicon } from "./lexicon.js";
import { letterCounts, nameBonus } from "./name-match.js";
import { parameterText } from "./parameter-text.js";
import { type QueryGroup, queryGroups } from "./query-terms.js";
import { indexKeywordPhrases, keywordsForTool, type SearchKeywords } from "./search-keywords.js";
import { createSemanticScorer, nudgeByMeaning } from "./semantic-score.js";
import { normalizeName, stem, tokenize } from "./tokenize.js";
import { topK } from "./top-k.js";
import { englishWordVectors, type WordVectors } from "./word-vectors.js";

/** Marks a name term that is an unstemmed surface form. */
export const SURFACE = "=";
/** Marks a term of the lexicon field (words describing a name word), kept apart from the same word elsewhere. */
export const DESCRIBED = "~";

/**
 * A lexicon word describing more than this share of the tools is left out of the lexicon field: it tells
 * them apart little and costs time on every query that has it (measured: no change in quality). Small
 * catalogs, where it costs nothing, keep every word.
 */
const MAX_DESCRIBED_DOC_SHARE = 0.02;
/** Likewise a query word's lexicon synonym found in more than this share of the tools is not tried. */
const MAX_RELATED_DOC_SHARE = 0.05;

export interface SearchIndexOptions {
  /** Extra words per tool (per-server `searchKeywords`). Never stored on the tools themselves. */
  searchKeywords?: SearchKeywords;
  /** Weights instead of the defaults (`DEFAULT_RANKING_WEIGHTS`). */
  weights?: Partial<RankingWeights>;
  /** Word knowledge for names and queries (default: `englishLexicon`, from WordNet; `false`: none). */
  lexicon?: Lexicon | false;
  /** Word vectors that reorder matches by meaning (default: `englishWordVectors`, from GloVe; `false`: none). */
  wordVectors?: WordVectors | false;
}

export interface ScoredDoc {
  doc: number;
  score: number;
}

export interface SearchIndex {
  readonly tools: readonly ToolMetadata[];
  /** Every indexed term, for fuzzy and prefix expansion. */
  readonly vocabulary: ReadonlySet<string>;
  /** Name words of 8+ characters, which may be compounds such as `sequentialthinking`. */
  readonly longNameTerms: readonly string[];
  /** The vocabulary sorted, for prefix lookups. */
  readonly sortedTerms: readonly string[];
  /** The vocabulary by term length, for typo lookups. */
  readonly termsByLength: ReadonlyMap<number, readonly string[]>;
  readonly related?: (stemmed: string) => readonly (readonly [string, number])[];
  readonly relatedWeight?: number;
  readonly lexiconCredit?: number;
  /**
   * Tools scoring above zero, best first (ties by prefixed name): all of them,
   * or only the best `limit`; `total` counts every match.
   */
  score(
    query: string,
    accept?: (tool: ToolMetadata) => boolean,
    limit?: number,
  ): { hits: ScoredDoc[]; total: number };
}

interface Posting {
  docs: number[];
  weights: number[];
}

export function createSearchIndex(
  tools: readonly ToolMetadata[],
  options: SearchIndexOptions = {},
): SearchIndex {
  const FIELD_WEIGHT = fieldWeightList(options.weights);
  const lexicon = options.lexicon === undefined ? englishLexicon : options.lexicon || noLexicon;
  const keywords = tools.map((tool) => keywordsForTool(tool, options.searchKeywords));
  const fieldTokens = tools.map((tool, doc) => fieldsOf(tool, keywords[doc]!, lexicon));
  const phrases = indexKeywordPhrases(keywords);
  const avgLength = FIELD_WEIGHT.map(
    (_, f) =>
      fieldTokens.reduce((sum, fields) => sum + fields[f]!.length, 0) / Math.max(1, tools.length) || 1,
  );
  const postings = new Map<string, Posting>();
  // Built on a session's first search: plain arrays and one posting lookup per token keep it cheap.
  for (let doc = 0; doc < fieldTokens.length; doc++) {
    const fields = fieldTokens[doc]!;
    for (let f = 0; f < fields.length; f++) {
      const tokens = fields[f]!;
      const weight = FIELD_WEIGHT[f]! / (1 - FIELD_B[f]! + (FIELD_B[f]! * tokens.length) / avgLength[f]!);
      for (const token of tokens) {
        let posting = postings.get(token);
        if (!posting) {
          posting = { docs: [], weights: [] };
          postings.set(token, posting);
        }
        // Tokens of one document arrive together, so its entry, if any, is the last.
        const last = posting.docs.length - 1;
        if (last >= 0 && posting.docs[last] === doc) posting.weights[last]! += weight;
        else {
          posting.docs.push(doc);
          posting.weights.push(weight);
        }
      }
    }
  }
  const n = tools.length;
  const termScore = new Map<string, number[]>();
  const maxDescribedDocs = Math.max(50, n * MAX_DESCRIBED_DOC_SHARE);
  const maxRelatedDocs = Math.max(50, n * MAX_RELATED_DOC_SHARE);
  for (const [term, posting] of postings) {
    const df = posting.docs.length;
    if (df > maxDescribedDocs && term.startsWith(DESCRIBED)) {
      postings.delete(term);
      continue;
    }
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    termScore.set(
      term,
      posting.weights.map((tf) => (idf * tf * (K1 + 1)) / (K1 + tf)),
    );
  }
  const compactNames = tools.map(
    (tool) => [normalizeName(tool.name), normalizeName(tool.prefixedName)] as const,
  );
  const nameLetters = compactNames.map(
    ([name, prefixed]) => [letterCounts(name), letterCounts(prefixed)] as const,
  );
  const vocabulary = new Set(
    [...postings.keys()].filter((term) => !term.startsWith(SURFACE) && !term.startsWith(DESCRIBED)),
  );
  const longNameTerms = [
    ...new Set(
      fieldTokens.flatMap((fields) => fields[0]!.filter((t) => !t.startsWith(SURFACE)).slice(0, -1)),
    ),
  ].filter((t) => t.length >= 8);
  const sortedTerms = [...vocabulary].sort();
  const termsByLength = new Map<number, string[]>();
  for (const term of sortedTerms) {
    const bucket = termsByLength.get(term.length);
    if (bucket) bucket.push(term);
    else termsByLength.set(term.length, [term]);
  }

  const byCompactName = new Map<string, number[]>();
  compactNames.forEach((names, doc) => {
    for (const name of new Set(names)) {
      const docs = byCompactName.get(name);
      if (docs) docs.push(doc);
      else byCompactName.set(name, [doc]);
    }
  });
  // Per-query scratch space, reused (and left zeroed) so a query costs what it matches, not the catalog size.
  const scratch = {
    total: new Float64Array(n),
    /** Query words matched, each by the coverage credit of its best alternative. */
    matched: new Float64Array(n),
    best: new Float64Array(n),
    credit: new Float64Array(n),
    sums: new Float64Array(n),
  };
  const touched: number[] = [];
  const sumTouched: number[] = [];
  const { wordVectors } = options;
  const semanticWeight =
    wordVectors === false ? 0 : (options.weights?.semantic ?? DEFAULT_RANKING_WEIGHTS.semantic);
  const meaning = createSemanticScorer(
    tools,
    (stemmed) => postings.get(stemmed)?.docs.length ?? 0,
    wordVectors ? () => wordVectors : englishWordVectors,
  );

  const index: SearchIndex = {
    tools,
    vocabulary,
    longNameTerms,
    sortedTerms,
    termsByLength,
    related: (stemmed) =>
      lexicon.related(stemmed).filter(([term]) => (postings.get(term)?.docs.length ?? 0) <= maxRelatedDocs),
    relatedWeight: options.weights?.lexiconSynonym ?? DEFAULT_RANKING_WEIGHTS.lexiconSynonym,
    lexiconCredit: options.weights?.lexiconCoverage ?? DEFAULT_RANKING_WEIGHTS.lexiconCoverage,
    score(query, accept, limit) {
      const groups = queryGroups(query, index);
      const candidates: number[] = [];
      for (const group of groups) {
        addGroup(group, postings, termScore, scratch, touched, sumTouched);
        for (const doc of touched) {
          const value = scratch.best[doc]!;
          if (value > 0) {
            if (scratch.total[doc] === 0) candidates.push(doc);
            scratch.total[doc]! += value;
            scratch.matched[doc]! += scratch.credit[doc]!;
            scratch.best[doc] = 0;
          }
        }
        touched.length = 0;
      }
      const phraseBonus = phrases.match(query);
      // A keyword phrase of stop words alone ("how to") matched no query word.
      for (const doc of phraseBonus.keys()) {
        if (scratch.total[doc] === 0 && scratch.matched[doc] === 0) {
          candidates.push(doc);
          scratch.matched[doc] = 1;
        }
      }
      const compactQuery = normalizeName(query);
      // A query spelling a whole name finds that tool even when no word matched on its own.
      for (const doc of byCompactName.get(compactQuery) ?? []) {
        if (scratch.total[doc] === 0 && scratch.matched[doc] === 0) {
          candidates.push(doc);
          scratch.matched[doc] = 1;
        }
      }
      const nameLike = compactQuery.length >= 4 && !/\s/.test(query.trim());
      const queryLetters = letterCounts(compactQuery);
      const out: ScoredDoc[] = [];
      for (const doc of candidates) {
        const total = scratch.total[doc]!;
        const matched = Math.min(scratch.matched[doc]!, groups.length);
        scratch.total[doc] = 0;
        scratch.matched[doc] = 0;
        if (accept && !accept(tools[doc]!)) continue;
        const bonus = compactQuery
          ? nameBonus(compactQuery, compactNames[doc]!, nameLike, queryLetters, nameLetters[doc]!)
          : 0;
        const coverage = groups.length ? (matched + 1) / (groups.length + 1) : 1;
        const score = total * coverage + bonus + (phraseBonus.get(doc) ?? 0);
        if (score > 0) out.push({ doc, score });
      }
      nudgeByMeaning(out, query, meaning, semanticWeight);
      const better = (a: ScoredDoc, b: ScoredDoc) =>
        b.score - a.score || cmp(tools[a.doc]!.prefixedName, tools[b.doc]!.prefixedName);
      return { hits: limit === undefined ? out.sort(better) : topK(out, limit, better), total: out.length };
    },
  };
  return index;
}

interface GroupScratch {
  best: Float64Array;
  /** Coverage credit of the best alternative. */
  credit: Float64Array;
  sums: Float64Array;
}

/** Best alternative per document for one query word, written into `best` (and its credit into `credit`). */
function addGroup(
  group: QueryGroup,
  postings: Map<string, Posting>,
  termScore: Map<string, number[]>,
  { best, credit, sums }: GroupScratch,
  touched: number[],
  sumTouched: number[],
): void {
  for (const alternative of group) {
    const share = alternative.credit ?? 1;
    if (alternative.terms.length === 1) {
      const term = alternative.terms[0]!;
      const posting = postings.get(term);
      const scores = termScore.get(term);
      if (!posting || !scores) continue;
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i]!;
        const value = scores[i]! * alternative.weight;
        if (best[doc] === 0) touched.push(doc);
        if (value > best[doc]!) {
          best[doc] = value;
          credit[doc] = share;
        }
      }
      continue;
    }
    // A multi-term alternative (an abbreviation, or a stem plus its surface form) scores the sum of its terms.
    const start = sumTouched.length;
    alternative.terms.forEach((term, t) => {
      const termShare = alternative.weight * (alternative.termWeights?.[t] ?? 1);
      const posting = postings.get(term);
      const scores = termScore.get(term);
      if (!posting || !scores) return;
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i]!;
        if (sums[doc] === 0) sumTouched.push(doc);
        sums[doc]! += scores[i]! * termShare;
      }
    });
    for (let i = start; i < sumTouched.length; i++) {
      const doc = sumTouched[i]!;
      const value = sums[doc]!;
      sums[doc] = 0;
      if (best[doc] === 0) touched.push(doc);
      if (value > best[doc]!) {
        best[doc] = value;
        credit[doc] = share;
      }
    }
    sumTouched.length = start;
  }
}

function fieldsOf(tool: ToolMetadata, keywords: string[], lexicon: Lexicon): string[][] {
  const parameters = parameterText(tool.inputSchema);
  const terms = (text: string) => tokenize(text).map(stem);
  const nameTokens = tokenize(tool.name);
  const nameTerms = nameTokens.map(stem);
  // The whole name written together, last among the stems (see `longNameTerms`).
  nameTerms.push(normalizeName(tool.name));
  // Surface forms (`channels`, not only the stem `channel`) let an exact word outrank a stem match.
  for (const token of nameTokens) nameTerms.push(`${SURFACE}${token}`);
  return [
    nameTerms,
    terms(tool.server),
    terms(tool.description),
    terms(parameters.names.join(" ")),
    terms(parameters.values),
    terms(keywords.join(" ")),
    describingStems(nameTerms.slice(0, nameTokens.length), lexicon).map((term) => DESCRIBED + term),
  ];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
