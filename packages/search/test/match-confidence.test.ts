/**
 * Ranked hits say how sure they are: a tool that answers the request is
 * `strong`, one that only shares a word or a near spelling is `weak`, and
 * hits far below the best are `faint` (left out with `relevantOnly`). The
 * labels never change the order.
 */
import { describe, expect, it } from "vitest";
import { createSearchIndex, rankTools } from "../src/index.js";
import { catalog } from "./catalog-fixture.js";

const index = createSearchIndex(catalog);
const names = (query: string, options = {}) =>
  rankTools(query, index, { limit: 50, ...options }).hits.map((h) => h.tool.prefixedName);

describe("match confidence", () => {
  it("calls the tool that does what was asked a strong match", () => {
    const { hits, strong } = rankTools("take a screenshot of the page", index);
    expect(hits[0]?.tool.name).toBe("take_screenshot");
    expect(hits[0]?.confidence).toBe("strong");
    expect(strong).toBeGreaterThanOrEqual(1);
  });

  it("finds nothing strong for a request no tool serves, though some share a word or a near spelling", () => {
    const result = rankTools("cook a pasta dinner for four people", index);
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.strong).toBe(0);
    expect(result.hits.every((h) => h.confidence !== "strong")).toBe(true);
  });

  it("counts as relevant only hits within a share of the best, and relevantOnly leaves the rest out", () => {
    const all = rankTools("merge pull request", index, { limit: 50 });
    const shown = rankTools("merge pull request", index, { limit: 50, relevantOnly: true });
    expect(all.hits.some((h) => h.confidence === "faint")).toBe(true);
    expect(shown.hits.some((h) => h.confidence === "faint")).toBe(false);
    expect(shown.total).toBe(all.relevant);
    expect(shown.matched).toBe(all.total);
    expect(shown.total).toBeLessThan(all.total);
  });

  it("pages through relevant hits only", () => {
    const first = rankTools("create a branch", index, { limit: 1, relevantOnly: true });
    const relevant = first.relevant ?? 0;
    expect(relevant).toBeGreaterThan(1);
    expect(first.nextOffset).toBe(1);
    const last = rankTools("create a branch", index, {
      limit: 1,
      offset: relevant - 1,
      relevantOnly: true,
    });
    expect(last.hits).toHaveLength(1);
    expect(last.nextOffset).toBeUndefined();
  });

  it("keeps the order: relevantOnly is the ranked list cut short", () => {
    for (const query of ["take a screenshot of the page", "create a branch", "send a message to the team"]) {
      const shown = names(query, { relevantOnly: true });
      expect(names(query).slice(0, shown.length)).toEqual(shown);
    }
  });

  it("labels no regex hit: a pattern's every match counts", () => {
    const result = rankTools("screenshot", index, { regex: true });
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((h) => h.confidence === undefined)).toBe(true);
    expect(result.strong).toBeUndefined();
  });
});
