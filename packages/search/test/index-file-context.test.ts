/**
 * A kept index of tools with their servers' own text (`serverContext`): it is
 * kept, read back only for the same text (a changed instruction makes it
 * stale), ranks as a fresh build with that text, and a huge instruction costs
 * no more than its first characters (the signal reads 2,000 of them).
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

const searchKeywords = { slack: { "*": ["chat room"] } };
const serverContext = {
  "chrome-devtools":
    "Chrome DevTools\nControl and inspect a live Chrome browser: pages, network, performance.",
  slack: "Slack workspace\nTeam messaging: read and post to channels, look up colleagues.",
  github: "GitHub\nRepositories, pull requests, issues and code review on github.com.",
};
/** Queries whose ranking the servers' text changes (see the first test). */
const QUERIES = [
  "inspect the browser network",
  "message my colleagues",
  "code review",
  "screenshot page",
  "create an issue",
  "list",
];

const rankings = (index: SearchIndex) =>
  QUERIES.map((q) => rankTools(q, index, { limit: 50 }).hits.map((h) => `${h.tool.prefixedName} ${h.score}`));
const reread = () => JSON.parse(JSON.stringify(catalog)) as typeof catalog;

describe("a kept search index with server context", () => {
  it("is kept, read back, and ranks as a fresh build with the same context", () => {
    const options = { searchKeywords, serverContext };
    const bytes = searchIndexBytes(createSearchIndex(catalog, options));
    expect(bytes).toBeDefined();
    const loaded = searchIndexFromBytes(bytes!, reread(), {
      searchKeywords,
      serverContext: { ...serverContext },
    });
    expect(loaded).toBeDefined();
    const fresh = rankings(createSearchIndex(reread(), options));
    expect(rankings(loaded!)).toEqual(fresh);
    // The context counts in these rankings: without it they differ.
    expect(fresh).not.toEqual(rankings(createSearchIndex(reread(), { searchKeywords })));
  });

  it("is not read back for a changed, missing or added context", () => {
    const bytes = searchIndexBytes(createSearchIndex(catalog, { searchKeywords, serverContext }))!;
    const changed = { ...serverContext, slack: `${serverContext.slack} Now also sends invoices.` };
    const added = { ...serverContext, git: "Local git repositories." };
    for (const context of [changed, added, undefined]) {
      const options = { searchKeywords, ...(context ? { serverContext: context } : {}) };
      expect(searchIndexFromBytes(bytes, reread(), options)).toBeUndefined();
      expect(searchIndexBytesMatch(bytes, reread(), options)).toBe(false);
    }
    // Nor is an index made without context read back with one.
    const plain = searchIndexBytes(createSearchIndex(catalog, { searchKeywords }))!;
    expect(searchIndexFromBytes(plain, reread(), { searchKeywords, serverContext })).toBeUndefined();
    // Text of a server with no tools here is not part of the index.
    const elsewhere = { ...serverContext, unknown: "A server with no tools in this list." };
    expect(searchIndexBytesMatch(bytes, reread(), { searchKeywords, serverContext: elsewhere })).toBe(true);
  });

  it("checked ahead with one context, is not read with another", () => {
    const bytes = searchIndexBytes(createSearchIndex(catalog, { serverContext }))!;
    expect(searchIndexBytesMatch(bytes, reread(), { serverContext })).toBe(true);
    const changed = { ...serverContext, github: "GitHub, now with a new instruction." };
    expect(searchIndexFromBytes(bytes, reread(), { serverContext: changed })).toBeUndefined();
    expect(searchIndexFromBytes(bytes, reread(), { serverContext })).toBeDefined();
  });

  it("holds no more of a 1 MB instruction than the first 2,000 characters the signal reads", () => {
    const huge = `${serverContext.slack} ${"flood the channel with words ".repeat(40_000)}`;
    expect(huge.length).toBeGreaterThan(1_000_000);
    const hostile = { ...serverContext, slack: huge };
    const capped = { ...serverContext, slack: huge.slice(0, 2_000) };
    const bytes = searchIndexBytes(createSearchIndex(catalog, { serverContext: hostile }))!;
    const cappedBytes = searchIndexBytes(createSearchIndex(catalog, { serverContext: capped }))!;
    expect(bytes.byteLength).toBe(cappedBytes.byteLength);
    expect(Buffer.from(bytes).equals(Buffer.from(cappedBytes))).toBe(true);
    const loaded = searchIndexFromBytes(bytes, reread(), { serverContext: hostile })!;
    expect(rankings(loaded)).toEqual(rankings(createSearchIndex(reread(), { serverContext: capped })));
  });
});
