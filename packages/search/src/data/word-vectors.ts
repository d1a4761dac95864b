/**
 * General English word vectors (GloVe, 100 dimensions, the 30,000 most
 * frequent words; see WORD-VECTORS-LICENSE): words used in like contexts
 * have vectors pointing alike, so "money back" lies near "refund" although
 * they share no letters. Read on first use, never at import: the words
 * (sorted, so a lookup is a binary search), and each word's row as it is
 * asked for, the whole 3 MB table only once many are.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
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

/**
 * How many rows are read one by one before the whole table is: a search over a kept index needs only its
 * queries' words (a few each), building an index needs thousands.
 */
const ROWS_READ_ALONE = 256;

/** The built-in English word vectors (loaded once, on the first call). */
export function englishWordVectors(): WordVectors {
  if (loaded) return loaded;
  // The first line is the dimension; the words follow, one a line, read in place (not split into 30,000 strings).
  const text = readFileSync(WORDS_FILE, "utf8");
  const dimsEnd = text.indexOf("\n");
  const dims = Number(text.slice(0, dimsEnd));
  const words = new TextLines(text, dimsEnd + 1);
  // The 3 MB table is read whole only once many rows were asked for; until then each row alone.
  let all: Int8Array | undefined;
  const rows = new Map<number, Int8Array>();
  const rowOf = (row: number): Int8Array => {
    if (all) return all.subarray(row * dims, (row + 1) * dims);
    let vector = rows.get(row);
    if (vector) return vector;
    if (rows.size >= ROWS_READ_ALONE) {
      const bytes = readFileSync(VECTORS_FILE);
      all = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      rows.clear();
      return rowOf(row);
    }
    vector = readRow(row * dims, dims);
    rows.set(row, vector);
    return vector;
  };
  loaded = {
    dims,
    vector(word) {
      // The words are sorted (as the build script writes them): a binary search, no table of all 30,000 (~10 ms).
      const row = lowerBound(words, word);
      return words.at(row) === word ? rowOf(row) : undefined;
    },
  };
  return loaded;
}

/** `length` bytes of the vector file at `position`. */
function readRow(position: number, length: number): Int8Array {
  const vector = new Int8Array(length);
  const fd = openSync(VECTORS_FILE, "r");
  try {
    readSync(fd, vector, 0, length, position);
  } finally {
    closeSync(fd);
  }
  return vector;
}
