/**
 * A kept index keyed by the caller's name for its tools (`toolsKey`): read
 * back only with that key, for tools of the same names, and ranking as a
 * fresh build; the tools' text is then not what decides.
 */
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

const QUERIES = ["screenshot page", "merging pull requests", "slack channels", "send money back"];
const searchKeywords = { slack: { "*": ["chat room"] } };
const rankings = (index: SearchIndex) =>
  QUERIES.map((q) => rankTools(q, index, { limit: 50 }).hits.map((h) => `${h.tool.prefixedName} ${h.score}`));
const reread = () => JSON.parse(JSON.stringify(catalog)) as typeof catalog;

describe("a kept search index with the caller's tools key", () => {
  const bytes = searchIndexBytes(createSearchIndex(catalog, { searchKeywords }), { toolsKey: "listings-A" })!;

  it("is read back with the same key and ranks as a fresh build", () => {
    const loaded = searchIndexFromBytes(bytes, reread(), { searchKeywords, toolsKey: "listings-A" })!;
    expect(loaded).toBeDefined();
    expect(rankings(loaded)).toEqual(rankings(createSearchIndex(reread(), { searchKeywords })));
    expect(rankings(loaded).flat().length).toBeGreaterThan(QUERIES.length);
  });

  it("is not read with another key, without one, or with other keywords; a text-keyed one not with a key", () => {
    expect(searchIndexFromBytes(bytes, reread(), { searchKeywords, toolsKey: "listings-B" })).toBeUndefined();
    expect(searchIndexFromBytes(bytes, reread(), { searchKeywords })).toBeUndefined();
    expect(searchIndexFromBytes(bytes, reread(), { toolsKey: "listings-A" })).toBeUndefined();
    const byText = searchIndexBytes(createSearchIndex(catalog, { searchKeywords }))!;
    expect(
      searchIndexFromBytes(byText, reread(), { searchKeywords, toolsKey: "listings-A" }),
    ).toBeUndefined();
    expect(searchIndexFromBytes(byText, reread(), { searchKeywords })).toBeDefined();
  });

  it("stands for the tools' text, but a key given for tools of other names or number finds nothing", () => {
    // The caller's promise: same key, same tools. The text is not hashed, so an edit it did not tell of is not seen…
    const described = reread();
    described[2] = { ...described[2]!, description: `${described[2]!.description} Also posts a flamingo.` };
    expect(searchIndexFromBytes(bytes, described, { searchKeywords, toolsKey: "listings-A" })).toBeDefined();
    // …but the names are checked, in order, and the count.
    const renamed = reread();
    renamed[1] = { ...renamed[1]!, name: `${renamed[1]!.name}x` };
    expect(searchIndexFromBytes(bytes, renamed, { searchKeywords, toolsKey: "listings-A" })).toBeUndefined();
    const reprefixed = reread();
    reprefixed[1] = { ...reprefixed[1]!, prefixedName: `${reprefixed[1]!.prefixedName}x` };
    expect(
      searchIndexFromBytes(bytes, reprefixed, { searchKeywords, toolsKey: "listings-A" }),
    ).toBeUndefined();
    const reversed = [...reread()].reverse();
    expect(searchIndexFromBytes(bytes, reversed, { searchKeywords, toolsKey: "listings-A" })).toBeUndefined();
    expect(
      searchIndexFromBytes(bytes, reread().slice(1), { searchKeywords, toolsKey: "listings-A" }),
    ).toBeUndefined();
  });

  it("checked ahead, is read for the same key and names, and not for renamed tools after the check", () => {
    expect(searchIndexBytesMatch(bytes, reread(), { searchKeywords, toolsKey: "listings-A" })).toBe(true);
    const renamed = reread();
    renamed[0] = { ...renamed[0]!, name: `${renamed[0]!.name}x` };
    expect(searchIndexFromBytes(bytes, renamed, { searchKeywords, toolsKey: "listings-A" })).toBeUndefined();
    expect(searchIndexFromBytes(bytes, reread(), { searchKeywords, toolsKey: "listings-A" })).toBeDefined();
  });
});
