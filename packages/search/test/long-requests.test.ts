/**
 * Whole task requests as agents pass them: long, in several parts, each part
 * needing another tool. Every part of the request is read, and a tool that
 * serves one part is not buried under tools that share one generic word with
 * each of the other parts.
 */
import { describe, expect, it } from "vitest";
import { createSearchIndex, rankTools } from "../src/index.js";
import { tool } from "./catalog-fixture.js";

const tools = [
  tool("files", "write_file", "Create a new file or overwrite an existing file with new content."),
  tool("charts", "generate_line_chart", "Generate a line chart to show a trend over time."),
];

const rankOf = (query: string, name: string) =>
  rankTools(query, tools, { limit: 10 }).hits.findIndex((h) => h.tool.name === name) + 1;

describe("long task requests", () => {
  it("reads a part that comes after the request's first 32 words", () => {
    const context =
      "I am preparing quarterly notes for our team offsite next month and collecting background reading about regional markets, supplier contracts, hiring plans, office moves, travel budgets, customer interviews, product roadmaps, marketing campaigns, partner meetings, training sessions, security reviews, vendor audits";
    expect(context.split(" ").length).toBeGreaterThan(32);
    expect(rankOf(`${context}; when done, write everything to a new file`, "write_file")).toBe(1);
  });

  it("ranks the tool for one part of a request above a tool sharing its generic words", () => {
    // A catalog where the request's generic words are common (each in about one tool of 17), as in real ones.
    const generic = ["latest", "short summary", "new", "file"];
    const catalog = [
      tool("bio", "fold_protein", "Predict how a protein folds."),
      tool("news", "get_headlines", "The latest headlines, each with a short summary."),
      ...Array.from({ length: 120 }, (_, i) =>
        tool(
          `s${i}`,
          `op_${i}`,
          `Operation ${i} on records. ${generic.filter((_, k) => (i + k) % 17 === 0).join(", ")}`,
        ),
      ),
    ];
    const request =
      "Find the latest research papers on protein folding, then write a short summary to a new markdown file";
    const first = (weights = {}) =>
      rankTools(request, createSearchIndex(catalog, { weights }), { limit: 3 }).hits[0]?.tool.name;
    expect(first()).toBe("fold_protein");
    // Held to matching every word in proportion (and every word alike), the tool of generic words came first.
    expect(first({ coverageExponent: 1, concepts: 0 })).toBe("get_headlines");
  });
});
