/**
 * Whole task requests as agents pass them: long, in several parts, each part
 * needing another tool. Every part of the request is read, and a tool that
 * serves one part is not buried under tools that share one generic word with
 * each of the other parts.
 */
import { describe, expect, it } from "vitest";
import { rankTools } from "../src/index.js";
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
});
