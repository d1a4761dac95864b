/**
 * The text of `src/data/word-vectors.txt` for sorted `words` of `dims`-dimensional vectors: a first line
 * with the dimensions, the words per block and where each block starts (characters after the first
 * line), then one word a line. The loader finds a word's block by binary search over the blocks' first
 * words and its row within the block, without reading every line first.
 */
export const WORDS_PER_BLOCK = 16;

export function wordListText(dims, words) {
  const starts = [];
  let at = 0;
  words.forEach((word, row) => {
    if (row % WORDS_PER_BLOCK === 0) starts.push(at);
    at += word.length + 1;
  });
  return `${[dims, WORDS_PER_BLOCK, ...starts].join(" ")}\n${words.map((word) => `${word}\n`).join("")}`;
}
