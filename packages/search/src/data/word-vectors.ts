/**
 * General English word vectors (GloVe, 100 dimensions, the 30,000 most
 * frequent words; see WORD-VECTORS-LICENSE): words used in like contexts
 * have vectors pointing alike, so "money back" lies near "refund" although
 * they share no letters. Read on first use (3 MB), never at import; the words are
 * sorted, so a lookup is a binary search.
 */
import { readFileSync } from "node:fs";
import { lowerBound, TextLines } from "../text/sorted-strings.js";

/** The data, beside this module in src/ and in dist/ (the build copies it); made by scripts/build-word-vectors.mjs. */
const WORDS_FILE = new URL("./word-vectors.txt", import.meta.url);
export const VECTORS_FILE = new URL("./word-vectors.bin", import.meta.url);

export interface WordVectors {
  readonly dims: number;
  /** The word's vector (length 1, scaled ×127), or undefined for a word not in the list. */
  vector(word: string): Int8Array | undefined;
}

let loaded: WordVectors | undefined;

/** The built-in English word vectors (loaded once, on the first call). */
export function englishWordVectors(): WordVectors {
  if (loaded) return loaded;
  // The first line is the dimension; the words follow, one a line, read in place (not split into 30,000 strings).
  const text = readFileSync(WORDS_FILE, "utf8");
  const dimsEnd = text.indexOf("\n");
  const dims = Number(text.slice(0, dimsEnd));
  const words = new TextLines(text, dimsEnd + 1);
  const bytes = readFileSync(VECTORS_FILE);
  const all = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  loaded = {
    dims,
    vector(word) {
      // The words are sorted (as the build script writes them): a binary search, no table of all 30,000 (~10 ms).
      const row = lowerBound(words, word);
      return words.at(row) === word ? all.subarray(row * dims, (row + 1) * dims) : undefined;
    },
  };
  return loaded;
}
