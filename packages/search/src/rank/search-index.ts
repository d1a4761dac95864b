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
import { englishLexicon, type Lexicon, noLexicon } from "../data/lexicon.js";
import { englishWordVectors, type WordVectors } from "../data/word-vectors.js";
import { DEFAULT_RANKING_WEIGHTS, fieldWeightList, type RankingWeights } from "../indexing/field-weights.js";
import { analyseTools, type IndexData } from "../indexing/index-data.js";
import { documentFrequency } from "../indexing/postings.js";
import { indexKeywordPhrases, keywordsForTool, type SearchKeywords } from "../indexing/search-keywords.js";
import { compactNamesOf } from "../indexing/tool-fields.js";
import { type QueryGroup, queryGroups, withoutWebAddresses } from "../query/query-terms.js";
import { letterCounts, nameBonus } from "../text/name-match.js";
import { normalizeName } from "../text/tokenize.js";
import { conceptWeights, serverFrequency } from "./concept-weights.js";
import {
  FEEDBACK_DOCS,
  FEEDBACK_MIN_WORDS,
  type ForwardIndex,
  feedbackGroups,
  forwardIndex,
  termsOf,
} from "./feedback.js";
import { addGroup } from "./group-scores.js";
import { countRelevant } from "./match-confidence.js";
import type { ScoredDoc } from "./scored-doc.js";
import { TermVocabulary } from "./term-vocabulary.js";

export type { ScoredDoc } from "./scored-doc.js";

import { createSemanticScorer, nudgeByMeaning, type SemanticScorer } from "./semantic-score.js";
import { contextText, createServerContext, type ServerContext } from "./server-context.js";
import { createServerWords } from "./server-words.js";
import { topK } from "./top-k.js";

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
  /** Per server, what it says about itself (title, description, instructions): a signal of its own (`serverContext` weight). */
  serverContext?: ServerContext;
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
   * or only the best `limit`; `total` counts every match, `relevant` those
   * within `RELEVANT_SHARE` of the best (match-confidence.ts).
   */
  score(
    query: string,
    accept?: (tool: ToolMetadata) => boolean,
    limit?: number,
  ): { hits: ScoredDoc[]; total: number; relevant: number };
}

export function createSearchIndex(
  tools: readonly ToolMetadata[],
  options: SearchIndexOptions = {},
): SearchIndex {
  const keywords = tools.map((tool) => keywordsForTool(tool, options.searchKeywords));
  const data = analyseTools(tools, keywords, lexiconOf(options), fieldWeightList(options.weights));
  return indexOver(tools, data, keywords, options, compactNamesOf);
}

/** The tools, data and options an index was made of (`index-file.ts` saves them). */
export interface IndexSource {
  data: IndexData;
  /** The index's meaning scorer (its tools' vectors are saved with the data). */
  meaning: SemanticScorer;
  keywords: readonly (readonly string[])[];
  options: SearchIndexOptions;
}

const sources = new WeakMap<SearchIndex, IndexSource>();

/** What `index` was made of, for an index made by this package. */
export function sourceOf(index: SearchIndex): IndexSource | undefined {
  return sources.get(index);
}

function lexiconOf(options: SearchIndexOptions): Lexicon {
  return options.lexicon === undefined ? englishLexicon : options.lexicon || noLexicon;
}

/**
 * The index of `tools` over their analysed `data` (made by `analyseTools` with these `keywords` and
 * options, now or in an earlier process); `names` gives each tool's compact names.
 */
export function indexOver(
  tools: readonly ToolMetadata[],
  data: IndexData,
  keywords: readonly (readonly string[])[],
  options: SearchIndexOptions,
  names: (
    tool: ToolMetadata,
    doc: number,
  ) => Pick<ReturnType<typeof compactNamesOf>, "compactNames" | "letters">,
): SearchIndex {
  const lexicon = lexiconOf(options);
  const { postings, longNameTerms } = data;
  const phrases = indexKeywordPhrases(keywords);
  const n = tools.length;
  const maxRelatedDocs = Math.max(50, n * MAX_RELATED_DOC_SHARE);
  const df = (term: string) => documentFrequency(postings, term);
  // Each tool's compact names, and their letter counts (which an index read from a file counts on first need).
  const nameForms: Pick<ReturnType<typeof compactNamesOf>, "compactNames" | "letters">[] = new Array(n);
  const compactNames: (readonly [string, string])[] = new Array(n);
  for (let doc = 0; doc < n; doc++) {
    nameForms[doc] = names(tools[doc]!, doc);
    compactNames[doc] = nameForms[doc]!.compactNames;
  }
  const vocabulary = new TermVocabulary(postings.ids);

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
    /** How sure the best alternative's match is (a synonym or near spelling less than the word itself). */
    sure: new Float64Array(n),
    /** The sum of `sure` over the query's own words, for `ScoredDoc.coverage`. */
    sureTotal: new Float64Array(n),
    sums: new Float64Array(n),
  };
  const touched: number[] = [];
  const sumTouched: number[] = [];
  const { wordVectors } = options;
  const weightOf = <K extends keyof RankingWeights>(name: K) =>
    options.weights?.[name] ?? DEFAULT_RANKING_WEIGHTS[name];
  const semanticWeight = wordVectors === false ? 0 : weightOf("semantic");
  const coverageExponent = weightOf("coverageExponent");
  const serverWords = createServerWords(tools, weightOf("serverWords"));
  const conceptWeight = weightOf("concepts");
  const feedbackWeight = weightOf("feedback");
  const serverIds = new Map<string, number>();
  const serverOf = Int32Array.from(tools, (tool) => {
    const id = serverIds.get(tool.server) ?? serverIds.size;
    serverIds.set(tool.server, id);
    return id;
  });
  const serverCount = serverIds.size;
  const serversHolding = serverFrequency(postings, serverOf);
  let forward: ForwardIndex | undefined;
  const meaning = createSemanticScorer(
    tools,
    df,
    wordVectors ? () => wordVectors : englishWordVectors,
    data.docVectors,
    {
      textOf: (server) => contextText(options.serverContext, server),
      weight: weightOf("serverContextMeaning"),
    },
  );
  const serverContext = createServerContext(tools, options.serverContext, weightOf("serverContext"));

  /** Lexical scores of the tools matching `groups` (each counting `weights[g]`) and the `extra` feedback groups. */
  const lexical = (
    query: string,
    read: string,
    groups: readonly QueryGroup[],
    weights: readonly number[],
    extra: readonly QueryGroup[],
    accept: ((tool: ToolMetadata) => boolean) | undefined,
  ): ScoredDoc[] => {
    const candidates: number[] = [];
    const all = extra.length ? [...groups, ...extra] : groups;
    all.forEach((group, g) => {
      const share = weights[g] ?? 1;
      addGroup(group, postings, scratch, touched, sumTouched);
      for (const doc of touched) {
        const value = scratch.best[doc]!;
        if (value > 0) {
          if (scratch.total[doc] === 0 && scratch.matched[doc] === 0) candidates.push(doc);
          scratch.total[doc]! += value * share;
          scratch.matched[doc]! += scratch.credit[doc]! * share;
          if (g < groups.length) scratch.sureTotal[doc]! += scratch.sure[doc]! * share;
          scratch.best[doc] = 0;
        }
      }
      touched.length = 0;
    });
    let words = 0;
    for (let g = 0; g < groups.length; g++) words += weights[g] ?? 1;
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
      scratch.sureTotal[doc] = words; // the query is its name: as sure as a match gets
    }
    const serverFactor = serverWords.factors(read);
    const nameLike = compactQuery.length >= 4 && !/\s/.test(query.trim());
    const queryLetters = letterCounts(compactQuery);
    const out: ScoredDoc[] = [];
    for (const doc of candidates) {
      const total = scratch.total[doc]!;
      const matched = Math.min(scratch.matched[doc]!, words);
      const sure = Math.min(scratch.sureTotal[doc]!, words);
      scratch.total[doc] = 0;
      scratch.matched[doc] = 0;
      scratch.sureTotal[doc] = 0;
      if (accept && !accept(tools[doc]!)) continue;
      const bonus = compactQuery
        ? nameBonus(compactQuery, compactNames[doc]!, nameLike, queryLetters, nameForms[doc]!)
        : 0;
      const coverage = groups.length ? ((matched + 1) / (words + 1)) ** coverageExponent : 1;
      const named = serverFactor ? serverFactor(doc) : 1;
      const score = total * coverage * named + bonus + (phraseBonus.get(doc) ?? 0);
      if (score > 0) out.push({ doc, score, coverage: words > 0 ? sure / words : 1 });
    }
    return out;
  };
  const better = (a: ScoredDoc, b: ScoredDoc) =>
    b.score - a.score || cmp(tools[a.doc]!.prefixedName, tools[b.doc]!.prefixedName);

  const index: SearchIndex = {
    tools,
    vocabulary,
    longNameTerms,
    get sortedTerms() {
      return vocabulary.sortedTerms;
    },
    get termsByLength() {
      return vocabulary.termsByLength;
    },
    related: (stemmed) => lexicon.related(stemmed).filter(([term]) => df(term) <= maxRelatedDocs),
    relatedWeight: options.weights?.lexiconSynonym ?? DEFAULT_RANKING_WEIGHTS.lexiconSynonym,
    lexiconCredit: options.weights?.lexiconCoverage ?? DEFAULT_RANKING_WEIGHTS.lexiconCoverage,
    score(query, accept, limit) {
      const read = withoutWebAddresses(query);
      const groups = queryGroups(read, index);
      const weights = conceptWeights(groups, serverCount, serversHolding, conceptWeight);
      let out = lexical(query, read, groups, weights, [], accept);
      if (feedbackWeight > 0 && out.length > 0 && groups.length >= FEEDBACK_MIN_WORDS) {
        forward ??= forwardIndex(postings, n);
        const first = topK(out, FEEDBACK_DOCS, better);
        const extra = feedbackGroups(first, forward, termsOf(groups), feedbackWeight);
        if (extra.length) out = lexical(query, read, groups, weights, extra, accept);
      }
      serverContext.apply(out, groups, weights);
      nudgeByMeaning(out, read, meaning, semanticWeight);
      const hits = limit === undefined ? out.sort(better) : topK(out, limit, better);
      return { hits, total: out.length, relevant: countRelevant(out) };
    },
  };
  sources.set(index, { data, meaning, keywords, options });
  return index;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
