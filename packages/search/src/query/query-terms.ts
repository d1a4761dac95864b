/**
 * Turns a query into groups of weighted alternative terms, one group per
 * meaningful query word. A document scores the best alternative of each group.
 *
 * Alternatives, strongest first: the word's stem; two adjacent words written
 * together (`sequential thinking` → `sequentialthinking`, also next to a stop
 * word: `drop-down` → `dropdown`);
 * an abbreviation's words (`pr` → pull request); synonyms; for a word the
 * index does not know, near spellings (one or two edits) and longer words it
 * begins; and long compound name terms that contain it. A verb of several
 * words the lexicon knows (`get rid of`, `look up`) is one group, of its
 * synonyms, instead of a group per word.
 */
import { withinEdits } from "../text/edit-distance.js";
import { lowerBound } from "../text/sorted-strings.js";
import { stem, tokenize } from "../text/tokenize.js";
import { expandAbbreviation, isStopWord, synonymsOf } from "../text/vocabulary.js";

export interface QueryAlternative {
  terms: readonly string[];
  /** Per-term shares of a multi-term alternative (default 1 each). */
  termWeights?: readonly number[];
  weight: number;
  /** How much matching only this alternative counts toward covering the query word (default 1). */
  credit?: number;
}
export type QueryGroup = QueryAlternative[];

interface Vocabulary {
  readonly vocabulary: ReadonlySet<string>;
  readonly longNameTerms: readonly string[];
  readonly sortedTerms: readonly string[];
  readonly termsByLength: ReadonlyMap<number, readonly string[]>;
  /** Related index terms of a query word's stem, each with a similarity in (0, 1]. */
  readonly related?: (stemmed: string) => readonly (readonly [string, number])[];
  /** What a related term counts relative to the word itself. */
  readonly relatedWeight?: number;
  /** Coverage credit of a match through the lexicon (a related term, or the lexicon field). */
  readonly lexiconCredit?: number;
}

const WEIGHT = {
  exact: 1,
  surface: 0.2,
  joined: 1,
  abbreviation: 0.8,
  synonym: 0.55,
  typo: 0.7,
  prefix: 0.6,
  part: 0.5,
};
const MAX_PREFIX_EXPANSIONS = 12;
/**
 * Words of a query read, at most (the rest is ignored). Agents pass whole task requests of 40–90 words
 * whose later sentences name other parts of the task ("… and save it as a PDF"); 32 cut those off.
 */
const MAX_QUERY_WORDS = 64;

/**
 * The query with each web address written as the word `url`: "open https://example.com/docs" asks to
 * open a URL, and the address's own words (example, com, docs) are what to open, not what to do —
 * tool descriptions full of example addresses would match them.
 */
export function withoutWebAddresses(query: string): string {
  return query.replace(/\b(?:https?:\/\/|www\.)[^\s"'<>]+/gi, " url ");
}

export function queryGroups(query: string, index: Vocabulary): QueryGroup[] {
  const all = tokenize(query);
  const words = all.filter((w) => !isStopWord(w));
  // Past MAX_QUERY_WORDS, pasted text would cost time for little.
  const used = (words.length ? words : all).slice(0, MAX_QUERY_WORDS);
  const groups: QueryGroup[] = [];
  const seen = new Set<string>();
  const phrases = verbPhrases(all, index);
  // A word's expansions never stand for another word of the query: in "ring a phone number", ring ≈
  // phone would count `phone` twice (a tool named for phone numbers over one that makes calls).
  const queryStems = new Set(used.map(stem));
  let position = -1;
  for (let i = 0; i < used.length; i++) {
    const word = used[i]!;
    position = all.indexOf(word, position + 1);
    const phrase = phrases.get(position);
    if (phrase === null) continue;
    if (phrase && !phrase.withWord) {
      groups.push(phrase.group);
      continue;
    }
    const stemmed = stem(word);
    if (seen.has(stemmed)) continue;
    seen.add(stemmed);
    const group: QueryGroup = [
      { terms: [stemmed], weight: WEIGHT.exact },
      { terms: [stemmed, `=${word}`], termWeights: [1, WEIGHT.surface], weight: WEIGHT.exact },
    ];
    const add = (term: string, weight: number) => {
      if (queryStems.has(term)) return;
      if (!group.some((a) => a.terms.length === 1 && a.terms[0] === term))
        group.push({ terms: [term], weight });
    };
    // Written apart, known together: `sequential thinking`, and with a stop word `drop-down`, `log in`.
    const joins = [used[i - 1], all[position - 1]].map((before) => before && before + word);
    for (const after of [used[i + 1], all[position + 1]]) joins.push(after && word + after);
    for (const joined of joins) {
      if (!joined) continue;
      if (index.vocabulary.has(joined)) add(joined, WEIGHT.joined);
      // Written apart, a word of the synonym list together (`go to` → goto ≈ navigate, visit).
      else for (const synonym of synonymsOf(joined)) add(synonym, WEIGHT.synonym);
    }
    const abbreviation = expandAbbreviation(word);
    if (abbreviation) group.push({ terms: abbreviation, weight: WEIGHT.abbreviation });
    for (const synonym of synonymsOf(stemmed)) add(synonym, WEIGHT.synonym);
    const credit = index.lexiconCredit ?? 1;
    // Words whose definitions in the lexicon use this word (`money` → create_refund).
    group.push({ terms: [`~${stemmed}`], weight: 1, credit });
    for (const [term, similarity] of index.related?.(stemmed) ?? []) {
      if (index.vocabulary.has(term) && !queryStems.has(term) && !group.some((a) => a.terms[0] === term))
        group.push({ terms: [term], weight: (index.relatedWeight ?? 0) * similarity, credit });
    }
    if (!index.vocabulary.has(stemmed) && word.length >= 4) {
      for (const term of nearSpellings(word, stemmed, index)) add(term, WEIGHT.typo);
    }
    if (word.length >= 4) {
      for (const term of index.longNameTerms) {
        if (term !== stemmed && term.includes(word)) add(term, WEIGHT.part);
      }
    }
    for (const alternative of phrase?.group ?? [])
      if (!group.some((a) => a.terms.length === 1 && a.terms[0] === alternative.terms[0]))
        group.push(alternative);
    groups.push(group);
  }
  return groups;
}

const MAX_PHRASE_WORDS = 4;

interface VerbPhrase {
  /** The phrase as one word: its synonyms, and the phrase written together (`lookup`). */
  group: QueryGroup;
  /**
   * Whether the first word keeps its own meaning too: when the phrase's synonyms include it (`pass on`
   * ≈ pass, so "did the checks pass on this PR" still matches `pass`), not when they do not (`get rid
   * of` is no kind of get).
   */
  withWord: boolean;
}

/**
 * Verbs of several words the lexicon knows (`get rid of`, `look up`, `shut down`), by the position of
 * their first word not a stop word; the positions of its other words map to null (no group of their own).
 * A particle may also stand after the verb's object, at the query's end ("give a customer their money
 * back", "call the customer back"); the verb then keeps its own meaning too, since the last word may as
 * well be an adverb of the sentence.
 */
function verbPhrases(all: readonly string[], index: Vocabulary): Map<number, VerbPhrase | null> {
  const out = new Map<number, VerbPhrase | null>();
  if (!index.related) return out;
  const stems = all.map(stem);
  const last = all.length - 1;
  for (let start = 0; start < last; start++) {
    // `do in` (kill) in "do in-depth research": a phrase begins with a word that means something.
    if (isStopWord(all[start]!)) continue;
    const keys = [stems[start]!];
    for (let k = start + 1; k < Math.min(start + MAX_PHRASE_WORDS, all.length); k++)
      keys.push(`${keys[keys.length - 1]}_${stems[k]}`);
    let length = keys.length;
    for (; length >= 2; length--) {
      // `take to` (grow fond of) in "take to drive": a `to` ending is most often an infinitive's.
      if (all[start + length - 1] === "to") continue;
      const related = index.related(keys[length - 1]!);
      if (related.length === 0) continue;
      const words = all.slice(start, start + length);
      const group = phraseGroup(related, words.join(""), index);
      const content = words.map((w, k) => (isStopWord(w) ? -1 : start + k)).filter((p) => p >= 0);
      if (!group || content.length === 0) continue;
      const head = stems[content[0]!];
      out.set(content[0]!, { group, withWord: related.some(([term]) => term === head) });
      for (const p of content.slice(1)) out.set(p, null);
      break;
    }
    if (length >= 2) {
      start += length - 1;
      continue;
    }
    const gap = last - start - 1;
    if (gap < 1 || gap > MAX_PARTICLE_GAP || !PARTICLES.has(all[last]!) || out.has(last)) continue;
    const related = index.related(`${stems[start]}_${stems[last]}`);
    const group = related.length ? phraseGroup(related, undefined, index) : undefined;
    if (!group) continue;
    out.set(start, { group, withWord: true });
    out.set(last, null);
  }
  return out;
}

/**
 * Words that end a verb of several words (`give back`, `shut down`, `log in`); the lexicon keeps every
 * WordNet verb with one of them (`PHRASAL` in scripts/build-lexicon.mjs lists the same words).
 */
const PARTICLES = new Set([
  "back",
  "up",
  "down",
  "off",
  "out",
  "on",
  "over",
  "away",
  "in",
  "around",
  "through",
]);
/** How many words may stand between a verb and its particle ("turn heroku maintenance mode off"). */
const MAX_PARTICLE_GAP = 4;

/** The group of a phrase with these lexicon synonyms (and `joined`, the phrase written together), if any is indexed. */
function phraseGroup(
  related: readonly (readonly [string, number])[],
  joined: string | undefined,
  index: Vocabulary,
): QueryGroup | undefined {
  const group: QueryGroup = [];
  const add = (term: string, weight: number) => {
    if (index.vocabulary.has(term) && !isStopWord(term) && !group.some((a) => a.terms[0] === term))
      group.push({ terms: [term], weight });
  };
  if (joined) add(joined, WEIGHT.joined);
  for (const [term, similarity] of related) {
    add(term, WEIGHT.synonym * similarity);
    for (const synonym of synonymsOf(term)) add(synonym, WEIGHT.synonym * similarity * WEIGHT.synonym);
  }
  return group.length ? group : undefined;
}

/** Vocabulary terms one or two edits away, or that the word begins. */
function nearSpellings(word: string, stemmed: string, index: Vocabulary): string[] {
  const maxEdits = word.length >= 8 ? 2 : 1;
  const out: string[] = [];
  const sorted = index.sortedTerms;
  for (let i = lowerBound(sorted, stemmed); i < sorted.length && out.length < MAX_PREFIX_EXPANSIONS; i++) {
    const term = sorted[i]!;
    if (!term.startsWith(stemmed)) break;
    if (term.length > stemmed.length) out.push(term);
  }
  for (let length = stemmed.length - maxEdits; length <= stemmed.length + maxEdits; length++) {
    for (const term of index.termsByLength.get(length) ?? []) {
      // Typos in both of the first two letters are rare; skipping those terms keeps this fast.
      if (term.charCodeAt(0) !== stemmed.charCodeAt(0) && term.charCodeAt(1) !== stemmed.charCodeAt(1))
        continue;
      if (term.length >= 3 && withinEdits(stemmed, term, maxEdits)) out.push(term);
    }
  }
  return out;
}
