import { describe, expect, it } from "vitest";
import {
  createSearchIndex,
  rankTools,
  type SearchIndex,
  searchIndexBytes,
  searchIndexBytesMatch,
  searchIndexFromBytes,
} from "../src/index.js";
import { catalog } from "./catalog-fixture.js";

const QUERIES = [
  "screenshot page",
  "merging pull requests",
  "slack channels",
  "create an issue",
  "tak_screenshot",
  "send money back",
  "list",
  "navigate to url",
];
const searchKeywords = { slack: { "*": ["chat room"] }, github: { create_branch: ["fork off"] } };

/** Every hit of every query (name and score), as a user would see them ranked. */
const rankings = (index: SearchIndex) =>
  QUERIES.map((q) => rankTools(q, index, { limit: 50 }).hits.map((h) => `${h.tool.prefixedName} ${h.score}`));

/** The tools as a later process reads them: new objects, equal content. */
const reread = () => JSON.parse(JSON.stringify(catalog)) as typeof catalog;

describe("a search index kept as bytes", () => {
  it("ranks every query exactly as an index built over the tools", () => {
    const built = createSearchIndex(catalog, { searchKeywords });
    const bytes = searchIndexBytes(built)!;
    expect(bytes.byteLength).toBeGreaterThan(0);
    const loaded = searchIndexFromBytes(bytes, reread(), { searchKeywords })!;
    expect(loaded).toBeDefined();
    expect(rankings(loaded)).toEqual(rankings(createSearchIndex(reread(), { searchKeywords })));
    expect(rankings(loaded).flat().length).toBeGreaterThan(QUERIES.length);
    // A copy of the bytes at another offset of a larger buffer reads the same.
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    expect(rankings(searchIndexFromBytes(shifted.subarray(3), reread(), { searchKeywords })!)).toEqual(
      rankings(loaded),
    );
  });

  it("is not used for tools, schemas or keywords other than those it was made of", () => {
    const bytes = searchIndexBytes(createSearchIndex(catalog, { searchKeywords }))!;
    const tools = reread();
    expect(searchIndexFromBytes(bytes, tools, { searchKeywords })).toBeDefined();
    const described = reread();
    described[2] = { ...described[2]!, description: `${described[2]!.description} Also posts a flamingo.` };
    expect(searchIndexFromBytes(bytes, described, { searchKeywords })).toBeUndefined();
    const schema = reread();
    schema[0] = {
      ...schema[0]!,
      inputSchema: { type: "object", properties: { quality: { type: "number" } } },
    };
    expect(searchIndexFromBytes(bytes, schema, { searchKeywords })).toBeUndefined();
    expect(searchIndexFromBytes(bytes, tools.slice(1), { searchKeywords })).toBeUndefined();
    expect(searchIndexFromBytes(bytes, [...tools].reverse(), { searchKeywords })).toBeUndefined();
    expect(searchIndexFromBytes(bytes, tools)).toBeUndefined();
    expect(
      searchIndexFromBytes(bytes, tools, { searchKeywords: { slack: { "*": ["lounge"] } } }),
    ).toBeUndefined();
  });

  it("says ahead whether bytes were made of the tools (searchIndexBytesMatch)", () => {
    const bytes = searchIndexBytes(createSearchIndex(catalog, { searchKeywords }))!;
    expect(searchIndexBytesMatch(bytes, reread(), { searchKeywords })).toBe(true);
    expect(searchIndexBytesMatch(bytes, reread())).toBe(false);
    expect(searchIndexBytesMatch(bytes, reread().slice(1), { searchKeywords })).toBe(false);
    expect(searchIndexBytesMatch(bytes.subarray(0, 10), reread(), { searchKeywords })).toBe(false);
  });

  it("read after a check of the same bytes, is still used only for the tools it was made of", () => {
    const bytes = searchIndexBytes(createSearchIndex(catalog, { searchKeywords }))!;
    expect(searchIndexBytesMatch(bytes, reread(), { searchKeywords })).toBe(true);
    for (const field of ["name", "prefixedName", "server", "description"] as const) {
      const tools = reread();
      tools[1] = { ...tools[1]!, [field]: `${tools[1]![field]}x` };
      expect(searchIndexFromBytes(bytes, tools, { searchKeywords }), field).toBeUndefined();
    }
    const loaded = searchIndexFromBytes(bytes, reread(), { searchKeywords })!;
    expect(rankings(loaded)).toEqual(rankings(createSearchIndex(reread(), { searchKeywords })));
  });

  it("gives no index for damaged bytes or bytes of another format", () => {
    const bytes = searchIndexBytes(createSearchIndex(catalog))!;
    const tools = reread();
    const damaged = (change: (copy: Uint8Array) => Uint8Array) =>
      searchIndexFromBytes(change(Uint8Array.from(bytes)), tools);
    // Where the sections after the header start (see index-file.ts).
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const headerLength = view.getUint32(8, true);
    const header = JSON.parse(Buffer.from(bytes.subarray(12, 12 + headerLength)).toString()) as {
      entries: number;
      tools: number;
      dims: number;
      terms: unknown[];
    };
    const docsAt =
      Math.ceil((12 + headerLength) / 8) * 8 +
      header.entries * 8 +
      header.tools * header.dims * 4 +
      (header.terms.length + 1) * 4;
    const flagsAt = docsAt + header.entries * 4;
    expect(flagsAt + header.tools).toBe(bytes.byteLength);

    expect(damaged((b) => b)).toBeDefined();
    expect(damaged((b) => b.subarray(0, b.byteLength - 1))).toBeUndefined();
    expect(damaged((b) => b.subarray(0, 20))).toBeUndefined();
    expect(damaged(() => new Uint8Array(0))).toBeUndefined();
    expect(damaged(() => new TextEncoder().encode('{"version":1}'))).toBeUndefined();
    const set = (at: number, value: number) => (b: Uint8Array) => {
      b[at] = value;
      return b;
    };
    expect(damaged(set(4, 1))).toBeUndefined(); // the format number: an earlier one
    expect(damaged(set(4, 9))).toBeUndefined(); // and a later one
    expect(damaged(set(14, 0x7b))).toBeUndefined(); // inside the header's JSON
    expect(damaged(set(docsAt, catalog.length + 5))).toBeUndefined(); // a tool past the last
    expect(damaged(set(flagsAt, 7))).toBeUndefined(); // a vector flag
    // A tool number below the first, a score or a vector value that is not a number.
    const scoresAt = Math.ceil((12 + headerLength) / 8) * 8;
    const vectorsAt = scoresAt + header.entries * 8;
    const write = (put: (view: DataView) => void) => (b: Uint8Array) => {
      put(new DataView(b.buffer, b.byteOffset));
      return b;
    };
    expect(damaged(write((v) => v.setInt32(docsAt + 4, -1, true)))).toBeUndefined();
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(damaged(write((v) => v.setFloat64(scoresAt + 8, value, true)))).toBeUndefined();
      expect(damaged(write((v) => v.setFloat32(vectorsAt + 4, value, true)))).toBeUndefined();
    }
  });

  it("is not made of an index with its own word knowledge", () => {
    expect(searchIndexBytes(createSearchIndex(catalog, { wordVectors: false }))).toBeUndefined();
    expect(searchIndexBytes(createSearchIndex(catalog, { lexicon: false }))).toBeUndefined();
    expect(searchIndexBytes(createSearchIndex(catalog, { weights: { name: 9 } }))).toBeUndefined();
  });
});
