/**
 * A web address in a query stands for "a URL": the words inside it (host,
 * path) say what to open, not what to do, so they do not match tools whose
 * descriptions happen to show example addresses.
 */
import { describe, expect, it } from "vitest";
import { rankTools } from "../src/index.js";
import { tool } from "./catalog-fixture.js";

const tools = [
  tool("browser", "navigate", "Navigate the browser to a URL."),
  tool("browser", "navigate_back", "Go back to the previous page in the history."),
  tool(
    "crawler",
    "scrape",
    "Scrape one page as markdown. Example: { url: 'https://example.com/docs', formats: ['markdown'] } for the example.com docs.",
  ),
];

const first = (query: string) => rankTools(query, tools).hits[0]?.tool.name;

describe("web addresses in a query", () => {
  it("read as a URL, not as the words inside them", () => {
    expect(first("open https://example.com/docs in the browser")).toBe("navigate");
    expect(first("load www.example.com/docs in the browser")).toBe("navigate");
  });
});
