/**
 * A search index as bytes to keep on disk, and back: what analysing a
 * thousand tools produced (`index-data.ts`), so the next process's first
 * search reads it instead of analysing every tool again. The bytes carry a
 * key — a SHA-256 over everything the index was made of: each tool's names,
 * server, description, input schema and search keywords, the scoring
 * constants, and which build of this package (and of its word data) made
 * it — and are used only for tools and options giving the same key. Bytes
 * that are damaged, of another format, or made from anything else give
 * `undefined`, never an error or a different ranking. Only indexes with the
 * built-in lexicon, weights and word vectors are kept (other ones are made
 * by code a file cannot name).
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { DEFAULT_RANKING_WEIGHTS, FIELD_LENGTH_NORMALISATION, fieldWeightList, K1 } from "./field-weights.js";
import type { IndexData } from "./index-data.js";
import { letterCounts } from "./name-match.js";
import { indexOver, type SearchIndex, type SearchIndexOptions, sourceOf } from "./search-index.js";
import { keywordsForTool, type SearchKeywords } from "./search-keywords.js";
import { normalizeName } from "./tokenize.js";

const MAGIC = "PMSI";
/** Raised whenever the layout of the bytes changes. */
const FORMAT = 1;
/** Magic, format, header length. */
const PREAMBLE = 12;

/** The code and data an index depends on: this module's file (the package's bundle once built) and the word data. */
const MADE_BY = [
  new URL(import.meta.url),
  new URL("./lexicon-data.txt", import.meta.url),
  new URL("./word-vectors.bin", import.meta.url),
];

interface Header {
  key: string;
  tools: number;
  entries: number;
  /** Terms by number; `null` for a term the index dropped. */
  terms: (string | null)[];
  longNameTerms: string[];
}

/**
 * The bytes to keep of `index`, or `undefined` when it cannot be kept (not
 * made by `createSearchIndex`, or with its own lexicon, weights or word
 * vectors).
 */
export function searchIndexBytes(index: SearchIndex): Uint8Array | undefined {
  const source = sourceOf(index);
  if (!source || !keepable(source.options)) return undefined;
  const key = indexKey(index.tools, source.keywords);
  if (key === undefined) return undefined;
  const { ids, start, docs, scores } = source.data.postings;
  const terms: (string | null)[] = new Array(start.length - 1).fill(null);
  for (const [term, id] of ids) terms[id] = term;
  const header: Header = {
    key,
    tools: index.tools.length,
    entries: docs.length,
    terms,
    longNameTerms: [...source.data.longNameTerms],
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const offset = align8(PREAMBLE + json.length);
  const out = Buffer.alloc(offset + scores.byteLength + start.byteLength + docs.byteLength);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(FORMAT, 4);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, PREAMBLE);
  let at = offset;
  for (const array of [scores, start, docs]) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  return out;
}

/**
 * The index of `tools` from bytes `searchIndexBytes` made, or `undefined`
 * when they were made from other tools, keywords or code, or are not such
 * bytes at all. The index ranks exactly as `createSearchIndex(tools, options)`.
 */
export function searchIndexFromBytes(
  bytes: Uint8Array,
  tools: readonly ToolMetadata[],
  options: { searchKeywords?: SearchKeywords } = {},
): SearchIndex | undefined {
  const read = readHeader(bytes, tools, options);
  if (!read) return undefined;
  const data = indexData(read.buffer, align8(read.headerEnd), read.header);
  if (!data) return undefined;
  const indexOptions: SearchIndexOptions = options.searchKeywords
    ? { searchKeywords: options.searchKeywords }
    : {};
  return indexOver(tools, data, read.keywords, indexOptions, namesOf);
}

/**
 * Whether bytes `searchIndexBytes` made were made of these tools and
 * options by this build (their postings are not checked): cheaper than
 * reading the index, for deciding ahead whether to analyse the tools.
 */
export function searchIndexBytesMatch(
  bytes: Uint8Array,
  tools: readonly ToolMetadata[],
  options: { searchKeywords?: SearchKeywords } = {},
): boolean {
  return readHeader(bytes, tools, options) !== undefined;
}

/** The header of the bytes, when they are of this format and their key is the key of `tools` with `options`. */
function readHeader(
  bytes: Uint8Array,
  tools: readonly ToolMetadata[],
  options: { searchKeywords?: SearchKeywords },
) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < PREAMBLE || buffer.toString("latin1", 0, 4) !== MAGIC) return undefined;
  if (buffer.readUInt32LE(4) !== FORMAT) return undefined;
  const headerEnd = PREAMBLE + buffer.readUInt32LE(8);
  const header =
    headerEnd <= buffer.length ? parseHeader(buffer.toString("utf8", PREAMBLE, headerEnd)) : undefined;
  if (!header || header.tools !== tools.length) return undefined;
  const keywords = tools.map((tool) => keywordsForTool(tool, options.searchKeywords));
  if (header.key !== indexKey(tools, keywords)) return undefined;
  return { buffer, headerEnd, header, keywords };
}

function keepable(options: SearchIndexOptions): boolean {
  return options.lexicon === undefined && options.weights === undefined && options.wordVectors === undefined;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** The key of an index of `tools` with these keywords, by this build; `undefined` when the build cannot be named. */
function indexKey(
  tools: readonly ToolMetadata[],
  keywords: readonly (readonly string[])[],
): string | undefined {
  const hash = createHash("sha256");
  try {
    for (const url of MADE_BY) {
      const stat = statSync(fileURLToPath(url));
      hash.update(`${url.pathname}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  } catch {
    return undefined;
  }
  hash.update(
    JSON.stringify([FORMAT, DEFAULT_RANKING_WEIGHTS, fieldWeightList(), FIELD_LENGTH_NORMALISATION, K1]),
  );
  const parts: string[] = [];
  tools.forEach((tool, doc) => {
    parts.push(
      tool.prefixedName,
      tool.name,
      tool.server,
      tool.description ?? "",
      schemaJson(tool.inputSchema),
      keywords[doc]!.join("\u0001"),
    );
  });
  hash.update(parts.join("\u0000"));
  return hash.digest("hex");
}

/**
 * Input schemas as JSON, kept per schema object: the session's metadata and the start-up snapshot's (for
 * the warm-up's check) are other objects holding the same schemas.
 */
const schemaTexts = new WeakMap<object, string>();

function schemaJson(schema: ToolMetadata["inputSchema"]): string {
  if (typeof schema !== "object" || schema === null) return JSON.stringify(schema) ?? "";
  let text = schemaTexts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    schemaTexts.set(schema, text);
  }
  return text;
}

function parseHeader(text: string): Header | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const header = value as Partial<Header> | null;
  if (
    typeof header?.key !== "string" ||
    !Number.isInteger(header.tools) ||
    !Number.isInteger(header.entries) ||
    header.entries! < 0 ||
    !Array.isArray(header.terms) ||
    !header.terms.every((term) => term === null || typeof term === "string") ||
    !Array.isArray(header.longNameTerms) ||
    !header.longNameTerms.every((term) => typeof term === "string")
  )
    return undefined;
  return header as Header;
}

/** The postings the bytes hold after the header, checked to be whole and in range. */
function indexData(buffer: Buffer, offset: number, header: Header): IndexData | undefined {
  const { entries, terms } = header;
  const sizes = [entries * 8, (terms.length + 1) * 4, entries * 4];
  if (buffer.length !== offset + sizes[0]! + sizes[1]! + sizes[2]!) return undefined;
  // Copied out: typed arrays need aligned offsets, and the buffer may be a slice of a larger one.
  const section = (at: number, size: number) =>
    buffer.buffer.slice(buffer.byteOffset + at, buffer.byteOffset + at + size);
  const scores = new Float64Array(section(offset, sizes[0]!));
  const start = new Int32Array(section(offset + sizes[0]!, sizes[1]!));
  const docs = new Int32Array(section(offset + sizes[0]! + sizes[1]!, sizes[2]!));
  if (start[0] !== 0 || start[terms.length] !== entries) return undefined;
  for (let t = 0; t < terms.length; t++) if (start[t + 1]! < start[t]!) return undefined;
  for (let e = 0; e < entries; e++) {
    if (docs[e]! < 0 || docs[e]! >= header.tools || !Number.isFinite(scores[e]!)) return undefined;
  }
  const ids = new Map<string, number>();
  terms.forEach((term, id) => {
    if (term !== null) ids.set(term, id);
  });
  if (ids.size !== terms.filter((term) => term !== null).length) return undefined;
  return { postings: { ids, start, docs, scores }, longNameTerms: header.longNameTerms };
}

/** A tool's compact names and their letter counts, as `tool-fields.ts` makes them (without analysing the tool). */
function namesOf(tool: ToolMetadata) {
  const compactNames = [normalizeName(tool.name), normalizeName(tool.prefixedName)] as const;
  return { compactNames, letters: [letterCounts(compactNames[0]), letterCounts(compactNames[1])] as const };
}
