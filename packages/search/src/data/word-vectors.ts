/**
 * General English word vectors (GloVe, 100 dimensions, the 30,000 most
 * frequent words; see WORD-VECTORS-LICENSE): words used in like contexts
 * have vectors pointing alike, so "money back" lies near "refund" although
 * they share no letters. Read on first use, never at import: the words
 * (sorted, so a lookup is a binary search), and each word's row as it is
 * asked for, the whole 3 MB table only once many are.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { compareField, NEWLINE, nextByte } from "../text/sorted-strings.js";

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

/** Words whose row is remembered (the list's own 30,000 and some it lacks). */
const MAX_FOUND = 50_000;

/** The built-in English word vectors (loaded once, on the first call). */
export function englishWordVectors(): WordVectors {
  if (loaded) return loaded;
  const words = readWordList();
  const { dims } = words;
  // The 3 MB table is read whole only once many rows were asked for; until then each row alone.
  let all: Int8Array | undefined;
  const rows = new Map<number, Int8Array>();
  // Each word's row (-1: not in the list) as found: an index build asks for the same words again and again.
  // Bounded: a long session's queries keep bringing words the list lacks.
  const found = new Map<string, number>();
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
      let row = found.get(word);
      if (row === undefined) {
        row = words.rowOf(word) ?? -1;
        if (found.size < MAX_FOUND) found.set(word, row);
      }
      return row < 0 ? undefined : rowOf(row);
    },
  };
  return loaded;
}

/**
 * The word list (scripts/word-list-text.mjs): ASCII, sorted, one word a line after a first line with
 * the dimensions, the words per block and each block's start. Left as bytes: a word's row is found
 * by binary search over the blocks' first words, then within its block, never reading every line
 * (a table of all 30,000 lines cost the first search ~3 ms).
 */
function readWordList(): { dims: number; rowOf(word: string): number | undefined } {
  const bytes = readFileSync(WORDS_FILE);
  const headerEnd = bytes.indexOf(NEWLINE);
  const [dims = 0, perBlock = 1, ...starts] = bytes.toString("latin1", 0, headerEnd).split(" ").map(Number);
  const blockAt = (block: number) => headerEnd + 1 + starts[block]!;
  return {
    dims,
    rowOf(word) {
      // The last block whose first word is not above `word`.
      let low = 0;
      let high = starts.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (compareField(bytes, blockAt(mid), word, NEWLINE) <= 0) low = mid + 1;
        else high = mid;
      }
      if (low === 0) return undefined;
      const block = low - 1;
      const end = block + 1 < starts.length ? blockAt(block + 1) : bytes.length;
      for (let at = blockAt(block), row = block * perBlock; at < end; row++) {
        const order = compareField(bytes, at, word, NEWLINE);
        if (order === 0) return row;
        if (order > 0) return undefined;
        at = nextByte(bytes, NEWLINE, at) + 1;
        if (at === 0) return undefined;
      }
      return undefined;
    },
  };
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
