/**
 * General English word knowledge for search, from WordNet (see
 * `lexicon-data.ts` and the README): what a word means and which words mean
 * the same. It works in both directions, each at a discount:
 * - a tool's name words are indexed with their synonyms and the words of
 *   their definitions, in a low-weight field of their own, so plain words
 *   find a tool named in jargon (`create_refund` is also found by "money
 *   back": refund = "money returned to a payer", "pay back");
 * - a query word also matches the synonyms of its most frequent senses
 *   (`sum` ↔ `add`, `ring` ↔ `call`), the first sense counting most.
 */
import { LEXICON_DATA } from "./lexicon-data.js";

/** Word knowledge keyed by search stems (see `stem`); pass your own to `createSearchIndex`. */
export interface Lexicon {
  /** Stems that describe a name word's stem: its synonyms and definition words. */
  describe(stem: string): readonly string[];
  /** Stems that mean the same as a query word's stem, each with a weight in (0, 1]. */
  related(stem: string): readonly (readonly [string, number])[];
}

/** Senses whose synonyms and definitions describe a word (as in scripts/build-lexicon.mjs). */
const DEFINITION_SENSES = 2;

interface Entry {
  synonyms: string;
  described: string;
}

let entries: Map<string, Entry> | undefined;
const describedCache = new Map<string, readonly string[]>();
const relatedCache = new Map<string, readonly (readonly [string, number])[]>();

function entryOf(stem: string): Entry | undefined {
  if (!entries) {
    entries = new Map();
    for (const line of LEXICON_DATA.split("\n")) {
      const first = line.indexOf("|");
      const second = line.indexOf("|", first + 1);
      entries.set(line.slice(0, first), {
        synonyms: line.slice(first + 1, second),
        described: line.slice(second + 1),
      });
    }
  }
  return entries.get(stem);
}

/** The built-in lexicon: common English nouns and verbs from WordNet 3.1. */
export const englishLexicon: Lexicon = {
  describe(stem) {
    let out = describedCache.get(stem);
    if (!out) {
      const entry = entryOf(stem);
      const words = new Set(entry?.described ? entry.described.split(" ") : []);
      // The synonyms of the first senses, which the data leaves out of `described`.
      for (const sense of entry?.synonyms.split(",").slice(0, DEFINITION_SENSES) ?? [])
        for (const word of sense.split(" ")) if (word) words.add(word);
      out = [...words];
      describedCache.set(stem, out);
    }
    return out;
  },
  related(stem) {
    let out = relatedCache.get(stem);
    if (!out) {
      const weights = new Map<string, number>();
      const senses = entryOf(stem)?.synonyms.split(",") ?? [];
      senses.forEach((sense, rank) => {
        for (const word of sense.split(" ")) {
          if (word && !weights.has(word)) weights.set(word, 1 / (rank + 1));
        }
      });
      out = [...weights];
      relatedCache.set(stem, out);
    }
    return out;
  },
};

export const noLexicon: Lexicon = { describe: () => [], related: () => [] };

/**
 * Describing words kept per name word (definition words first): the index grows with them, and more
 * did not find more (measured with 10, 16, 24 and all: the same figures).
 */
const MAX_DESCRIBING_WORDS = 16;

/** The lexicon stems of a tool's name stems, without duplicates or the name stems themselves. */
export function describingStems(nameStems: readonly string[], lexicon: Lexicon): string[] {
  const out = new Set<string>();
  for (const stem of nameStems) {
    for (const word of lexicon.describe(stem).slice(0, MAX_DESCRIBING_WORDS)) out.add(word);
  }
  for (const stem of nameStems) out.delete(stem);
  return [...out];
}
