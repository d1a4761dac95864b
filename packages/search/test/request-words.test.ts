/**
 * How a long request's words are weighed: words found across many servers
 * count less than words that name a kind of tool (key-concept weighting), and
 * the best tools of a first pass lend their words to a second (pseudo-relevance
 * feedback). Short queries are read word for word.
 */
import { describe, expect, it } from "vitest";
import { createSearchIndex, rankTools } from "../src/index.js";
import { tool } from "./catalog-fixture.js";

const names = (query: string, tools: Parameters<typeof createSearchIndex>[0], weights = {}) =>
  rankTools(query, createSearchIndex(tools, { weights }), { limit: 10 }).hits.map((h) => h.tool.name);

describe("key concepts of a long request", () => {
  // Eight words each found in a quarter of the servers' tools; two found in one.
  const common = ["information", "details", "latest", "updates", "today", "overview", "status", "summary"];
  const catalog = [
    tool("weather", "get_forecast", "Weather forecast for a city."),
    tool("digest", "latest_updates_overview", `${common.join(", ")}.`),
    ...Array.from({ length: 40 }, (_, i) =>
      tool(`s${i}`, `op_${i}`, `Record ${i}: ${common[i % 8]}, ${common[(i + 3) % 8]}.`),
    ),
  ];
  const request = `give me ${common.join(" and ")} of the weather forecast`;

  it("ranks the tool for the request's rare words above one matching its words found everywhere", () => {
    expect(names(request, catalog)[0]).toBe("get_forecast");
    expect(names(request, catalog, { concepts: 0 })[0]).toBe("latest_updates_overview");
  });

  it("reads a short query word for word", () => {
    const short = "latest weather overview";
    expect(names(short, catalog)).toEqual(names(short, catalog, { concepts: 0 }));
  });
});

describe("feedback from the first pass", () => {
  const catalog = [
    tool("arxiv", "search_papers", "Search arxiv research papers on a topic."),
    tool("arxiv", "download_paper", "Download an arxiv paper as PDF by its identifier."),
    tool("shop", "list_orders", "List orders of a customer."),
  ];
  const request = "find recent research about protein folding methods published this year and summarise them";

  it("finds a tool sharing no word with the request through the tools the request found", () => {
    expect(names(request, catalog, { feedback: 0 })).not.toContain("download_paper");
    expect(names(request, catalog, { feedback: 0.3 })).toContain("download_paper");
    expect(names(request, catalog, { feedback: 0.3 })[0]).toBe("search_papers");
  });

  it("leaves a short query alone", () => {
    expect(names("research papers", catalog, { feedback: 0.3 })).toEqual(
      names("research papers", catalog, { feedback: 0 }),
    );
  });
});
