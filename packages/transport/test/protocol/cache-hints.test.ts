/**
 * The caching hints of a listing's lists read as one (cache-hints.ts): the
 * shortest `ttlMs`, private when any list is private, only first pages
 * counted, nothing at all from lists without hints (2025 servers).
 */
import { describe, expect, it } from "vitest";
import { ListingHints } from "../../src/protocol/cache-hints.js";

describe("ListingHints", () => {
  it("reads the lists' hints as one: the shortest ttlMs, private if any list is", () => {
    const hints = new ListingHints();
    hints.noted("tools/list", undefined, { tools: [], ttlMs: 60_000, cacheScope: "public" });
    hints.noted("prompts/list", undefined, { prompts: [], ttlMs: 5_000, cacheScope: "private" });
    hints.noted("tools/list", "page-2", { tools: [], ttlMs: 1, cacheScope: "public" });
    expect(hints.combined()).toEqual({ ttlMs: 5_000, cacheScope: "private" });
  });

  it("lists without hints, or with malformed ones, give none", () => {
    const hints = new ListingHints();
    hints.noted("tools/list", undefined, { tools: [] });
    hints.noted("prompts/list", undefined, { prompts: [], ttlMs: -5, cacheScope: "everyone" });
    expect(hints.combined()).toBeUndefined();
  });
});
