/**
 * A search index as bytes to keep on disk, and back: what analysing a
 * thousand tools produced (`index-data.ts`), so the next process's first
 * search reads it instead of analysing every tool again. The bytes carry a
 * key — a SHA-256 over everything the index was made of, its servers' own
 * text (`serverContext`) included (`index-key.ts`) — and are used only for
 * tools and options giving the same key. The server context's share of each
 * tool's meaning vector is in the saved vectors; its own signal is made again
 * at load from its (capped) texts. Bytes
 * that are damaged, of another format, or made from anything else give
 * `undefined`, never an error or a different ranking. Only indexes with the
 * built-in lexicon, weights and word vectors are kept (other ones are made
 * by code a file cannot name).
 */
import { createHash } from "node:crypto";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { contextTexts, indexKey, type KeyInputs, sameKeyInputs } from "./index-key.js";
import type { IndexData } from "./indexing/index-data.js";
import { keywordsForTool } from "./indexing/search-keywords.js";
import { indexOver, type SearchIndex, type SearchIndexOptions, sourceOf } from "./rank/search-index.js";
import { letterCounts } from "./text/name-match.js";
import { normalizeName } from "./text/tokenize.js";

/** The options a kept index is made and read with: the tools' keywords and their servers' own text. */
export type KeptIndexOptions = Pick<SearchIndexOptions, "searchKeywords" | "serverContext"> & KeptToolsKey;

export interface KeptToolsKey {
  /**
   * The caller's name for exactly these tools, when it has one cheaper than
   * their text: two lists given the same `toolsKey` must have the same names,
   * servers, descriptions and input schemas in the same order. The key then
   * stands for their descriptions and schemas (not hashed); their names are
   * still checked. Bytes made with a `toolsKey` are read only with the same
   * one, and bytes made without one only without.
   */
  toolsKey?: string;
}

const MAGIC = "PMSI";
/** Raised whenever the layout of the bytes changes. */
const FORMAT = 2;
/** Magic, format, header length. */
const PREAMBLE = 12;

interface Header {
  key: string;
  tools: number;
  entries: number;
  /** Terms by number; `null` for a term the index dropped. */
  terms: (string | null)[];
  longNameTerms: string[];
  /** Each tool's name and prefixed name without separators, two by two. */
  compactNames: string[];
  /** The tools' names and prefixed names as given, hashed (`namesHash`): what a `toolsKey` is checked against. */
  names: string;
  /** Length of the tools' meaning vectors. */
  dims: number;
}

/**
 * The bytes to keep of `index`, or `undefined` when it cannot be kept (not
 * made by `createSearchIndex`, or with its own lexicon, weights or word
 * vectors). Every tool's meaning vector is made here if it was not yet
 * (a few ms a hundred tools): call it in idle time.
 */
export function searchIndexBytes(
  index: SearchIndex,
  { toolsKey }: KeptToolsKey = {},
): Uint8Array | undefined {
  const source = sourceOf(index);
  if (!source || !keepable(source.options)) return undefined;
  const key = indexKey(
    {
      tools: index.tools,
      keywords: source.keywords,
      contexts: contextTexts(index.tools, source.options.serverContext),
      ...(toolsKey !== undefined ? { toolsKey } : {}),
    },
    FORMAT,
  );
  if (key === undefined) return undefined;
  const { ids, start, docs, scores } = source.data.postings;
  const terms: (string | null)[] = new Array(start.length - 1).fill(null);
  for (const [term, id] of ids) terms[id] = term;
  const n = index.tools.length;
  const vectors = index.tools.map((_, doc) => source.meaning.docVector(doc));
  const dims = vectors.find((v) => v !== null)?.length ?? 0;
  const header: Header = {
    key,
    tools: n,
    entries: docs.length,
    terms,
    longNameTerms: [...source.data.longNameTerms],
    compactNames: index.tools.flatMap((tool) => [normalizeName(tool.name), normalizeName(tool.prefixedName)]),
    names: namesHash(index.tools),
    dims,
  };
  const allVectors = new Float32Array(n * dims);
  const present = new Uint8Array(n);
  vectors.forEach((vector, doc) => {
    if (vector === null) return;
    allVectors.set(vector, doc * dims);
    present[doc] = 1;
  });
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const offset = align8(PREAMBLE + json.length);
  const sections = [scores, allVectors, start, docs, present];
  const out = Buffer.alloc(offset + sections.reduce((sum, array) => sum + array.byteLength, 0));
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(FORMAT, 4);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, PREAMBLE);
  let at = offset;
  for (const array of sections) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * The index of `tools` from bytes `searchIndexBytes` made, or `undefined`
 * when they were made from other tools, keywords or code, or are not such
 * bytes at all. The index ranks exactly as `createSearchIndex(tools, options)`.
 * It may keep views of `bytes`: do not change them afterwards.
 */
export function searchIndexFromBytes(
  bytes: Uint8Array,
  tools: readonly ToolMetadata[],
  options: KeptIndexOptions = {},
): SearchIndex | undefined {
  const read = readHeader(bytes, tools, options);
  if (!read) return undefined;
  const data = indexData(read.buffer, align8(read.headerEnd), read.header);
  if (!data) return undefined;
  // The server context's own signal is made again from its texts (a few servers' short texts); its share
  // of each tool's meaning vector is in the vectors read.
  const indexOptions: SearchIndexOptions = {
    ...(options.searchKeywords ? { searchKeywords: options.searchKeywords } : {}),
    ...(options.serverContext ? { serverContext: options.serverContext } : {}),
  };
  const { compactNames } = read.header;
  // Letter counts serve only near-spellings of a name: counted for a tool when a query first needs them.
  const namesOf = (_tool: ToolMetadata, doc: number) => {
    const names = [compactNames[2 * doc]!, compactNames[2 * doc + 1]!] as const;
    let letters: readonly [Uint8Array, Uint8Array] | undefined;
    return {
      compactNames: names,
      get letters() {
        letters ??= [letterCounts(names[0]), letterCounts(names[1])];
        return letters;
      },
    };
  };
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
  options: KeptIndexOptions = {},
): boolean {
  return readHeader(bytes, tools, options) !== undefined;
}

interface ReadHeader {
  buffer: Buffer;
  headerEnd: number;
  header: Header;
  keywords: string[][];
}

/**
 * Bytes whose key matched, with the inputs it matched: the same bytes asked
 * again for inputs that give the key the same values (a check ahead, then the
 * read) are neither parsed nor hashed again.
 */
const matched = new WeakMap<Uint8Array, { read: ReadHeader; inputs: KeyInputs }>();

/** The header of the bytes, when they are of this format and their key is the key of `tools` with `options`. */
function readHeader(
  bytes: Uint8Array,
  tools: readonly ToolMetadata[],
  options: KeptIndexOptions,
): ReadHeader | undefined {
  const keywords = tools.map((tool) => keywordsForTool(tool, options.searchKeywords));
  const inputs: KeyInputs = {
    tools,
    keywords,
    contexts: contextTexts(tools, options.serverContext),
    ...(options.toolsKey !== undefined ? { toolsKey: options.toolsKey } : {}),
  };
  const known = matched.get(bytes);
  if (known && sameKeyInputs(known.inputs, inputs)) {
    // Names checked already for these tool objects (the warm-up's check, then the session's read) are not again.
    const checked = known.inputs.tools;
    if (
      inputs.toolsKey !== undefined &&
      tools.some((tool, doc) => tool !== checked[doc]) &&
      known.read.header.names !== namesHash(tools)
    )
      return undefined;
    return { ...known.read, keywords };
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < PREAMBLE || buffer.toString("latin1", 0, 4) !== MAGIC) return undefined;
  if (buffer.readUInt32LE(4) !== FORMAT) return undefined;
  const headerEnd = PREAMBLE + buffer.readUInt32LE(8);
  const header =
    headerEnd <= buffer.length ? parseHeader(buffer.toString("utf8", PREAMBLE, headerEnd)) : undefined;
  if (!header || header.tools !== tools.length) return undefined;
  if (header.key !== indexKey(inputs, FORMAT)) return undefined;
  if (inputs.toolsKey !== undefined && header.names !== namesHash(tools)) return undefined;
  const read = { buffer, headerEnd, header, keywords };
  matched.set(bytes, { read, inputs });
  return read;
}

/**
 * The tools' names and prefixed names, in order, as one SHA-256: what is checked of tools keyed by the
 * caller's `toolsKey` (a key given for other tools then finds no index rather than a wrong one). A hash
 * of the names as given, not a comparison of each normalised name (~2 ms for a thousand tools).
 */
function namesHash(tools: readonly ToolMetadata[]): string {
  const hash = createHash("sha256");
  for (const tool of tools) hash.update(`${tool.name}\u0000${tool.prefixedName}\u0000`);
  return hash.digest("hex");
}

function keepable(options: SearchIndexOptions): boolean {
  return options.lexicon === undefined && options.weights === undefined && options.wordVectors === undefined;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
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
    !header.longNameTerms.every((term) => typeof term === "string") ||
    !Array.isArray(header.compactNames) ||
    header.compactNames.length !== 2 * header.tools! ||
    !header.compactNames.every((name) => typeof name === "string") ||
    typeof header.names !== "string" ||
    !Number.isInteger(header.dims) ||
    header.dims! < 0
  )
    return undefined;
  return header as Header;
}

/**
 * Whether the values hold NaN or an infinity: three scans by the engine itself (`includes` finds NaN), in a
 * fresh process several times cheaper than a loop of ours over a hundred thousand scores and vector values.
 */
function hasNonFinite(values: Float64Array | Float32Array): boolean {
  return (
    values.includes(Number.NaN) ||
    values.includes(Number.POSITIVE_INFINITY) ||
    values.includes(Number.NEGATIVE_INFINITY)
  );
}

/** The postings and vectors the bytes hold after the header, checked to be whole and in range. */
function indexData(buffer: Buffer, offset: number, header: Header): IndexData | undefined {
  const { entries, terms, tools: n, dims } = header;
  const sizes = [entries * 8, n * dims * 4, (terms.length + 1) * 4, entries * 4, n];
  if (buffer.length !== offset + sizes.reduce((sum, size) => sum + size, 0)) return undefined;
  // Views of the bytes where they are aligned for the type (a file read whole is), else copies.
  let at = buffer.byteOffset + offset;
  const [scoreAt, vectorAt, startAt, docAt, presentAt] = sizes.map((size) => {
    at += size;
    return at - size;
  });
  const section = <T>(
    start: number,
    size: number,
    type: { BYTES_PER_ELEMENT: number; new (b: ArrayBufferLike, at?: number, length?: number): T },
  ) =>
    start % type.BYTES_PER_ELEMENT === 0
      ? new type(buffer.buffer, start, size / type.BYTES_PER_ELEMENT)
      : new type(buffer.buffer.slice(start, start + size));
  const scores = section(scoreAt!, sizes[0]!, Float64Array);
  const allVectors = section(vectorAt!, sizes[1]!, Float32Array);
  const start = section(startAt!, sizes[2]!, Int32Array);
  const docs = section(docAt!, sizes[3]!, Int32Array);
  const present = section(presentAt!, sizes[4]!, Uint8Array);
  if (start[0] !== 0 || start[terms.length] !== entries) return undefined;
  for (let t = 0; t < terms.length; t++) if (start[t + 1]! < start[t]!) return undefined;
  // A negative tool number wraps past `n`.
  for (let e = 0; e < entries; e++) if (docs[e]! >>> 0 >= n) return undefined;
  if (hasNonFinite(scores) || hasNonFinite(allVectors)) return undefined;
  if (present.some((flag) => flag > 1)) return undefined;
  const ids = new Map<string, number>();
  terms.forEach((term, id) => {
    if (term !== null) ids.set(term, id);
  });
  if (ids.size !== terms.filter((term) => term !== null).length) return undefined;
  const docVectors = Array.from(present, (has, doc) =>
    has === 1 ? allVectors.subarray(doc * dims, (doc + 1) * dims) : null,
  );
  return { postings: { ids, start, docs, scores }, longNameTerms: header.longNameTerms, docVectors };
}
