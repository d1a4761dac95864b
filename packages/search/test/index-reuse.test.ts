import { describe, expect, it } from "vitest";
import { createSearchIndex, prepareSearch, rankTools } from "../src/index.js";
import { catalog, tool } from "./catalog-fixture.js";

const ranked = (tools: Parameters<typeof createSearchIndex>[0], query: string) =>
  rankTools(query, createSearchIndex(tools)).hits.map((h) => `${h.tool.prefixedName} ${h.score}`);

/** Copies of the catalog's tools: new objects holding the same strings and schema objects. */
const copies = () => catalog.map((t) => ({ ...t }));

describe("an index built again", () => {
  it("ranks alike with and without analysis done ahead (prepareSearch), and on other objects of the same tools", () => {
    const queries = ["screenshot page", "merging pull requests", "slack channels", "create an issue"];
    const fresh = JSON.parse(JSON.stringify(catalog)) as typeof catalog;
    const before = queries.map((q) => ranked(fresh, q));
    prepareSearch(copies());
    expect(queries.map((q) => ranked(copies(), q))).toEqual(before);
    expect(queries.map((q) => ranked(catalog, q))).toEqual(before);
  });

  it("sees a server's changed tools while the other servers' tools are reused", () => {
    const first = [...catalog];
    expect(rankTools("flamingo", first).total).toBe(0);
    const changed = first.map((t) =>
      t.server === "slack" ? { ...t, description: `${t.description} Posts a flamingo.` } : t,
    );
    const hits = rankTools("flamingo", changed).hits.map((h) => h.tool.server);
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits)).toEqual(new Set(["slack"]));
  });

  it("tells apart tools that share one schema object but differ in name or description", () => {
    const schema = { type: "object", properties: { id: { type: "string" } } } as const;
    const tools = [
      { ...tool("db", "drop_table", "Drop a table"), inputSchema: schema },
      { ...tool("db", "vacuum", "Reclaim storage of a database"), inputSchema: schema },
    ];
    expect(rankTools("reclaim storage", tools).hits[0]?.tool.name).toBe("vacuum");
    expect(rankTools("drop table", tools).hits[0]?.tool.name).toBe("drop_table");
  });

  it("sees a description changed in place on the same tool object", () => {
    const tools = [tool("notes", "add_note", "Add a note"), tool("notes", "list_notes", "List notes")];
    expect(rankTools("pelican", [...tools]).total).toBe(0);
    tools[1]!.description = "List notes about a pelican";
    expect(rankTools("pelican", [...tools]).hits[0]?.tool.name).toBe("list_notes");
  });
});
