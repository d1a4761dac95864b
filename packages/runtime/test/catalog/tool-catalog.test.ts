import * as fs from "node:fs/promises";
import { readFile } from "node:fs/promises";
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  connectInMemory,
  createFixtureServer,
  createTempDir,
  type FixtureTool,
} from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { AdapterRuntime } from "../../src/index.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";
import { stdioDefinition } from "../definitions.js";

const def = stdioDefinition;

const trackerTools: FixtureTool[] = [
  {
    name: "search_issues",
    description: "Search issues by text",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer", default: 20 } },
      required: ["query"],
    },
  },
  { name: "create_issue", description: "Open a new issue" },
];
const INSTRUCTIONS = `Tracker for the ACME team. Always pass a project key.\n\n${"More detail. ".repeat(200)}`;

function runtimeWith(
  cacheFile: string,
  servers: ServerDefinition[],
  canStart: boolean,
  connects: string[] = [],
) {
  return new AdapterRuntime({
    servers,
    catalog: { cache: new MetadataCache({ file: cacheFile }) },
    connect: async (definition) => {
      connects.push(definition.name);
      if (!canStart) throw new Error(`spawn ${definition.name} ENOENT`);
      const server = createFixtureServer({
        name: definition.name,
        tools: trackerTools,
        instructions: INSTRUCTIONS,
      });
      return connectServer(definition, { transport: await connectInMemory(server) });
    },
  });
}

const textOf = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

describe("runtime catalog with the metadata cache", () => {
  it("lists live once, then searches and describes from the cache with no connection", async () => {
    await using dir = await createTempDir();
    const cacheFile = dir.join("agent", "mcp-cache.json");
    const warm = runtimeWith(cacheFile, [def("tracker")], true);
    expect((await warm.catalog.search("issues")).hits.map((h) => h.tool.name)).toContain("search_issues");
    await warm.shutdown();
    const onDisk = await readFile(cacheFile, "utf8");
    expect(onDisk).toContain("search_issues");
    expect(onDisk).toContain("Tracker for the ACME team");

    const connects: string[] = [];
    const cold = runtimeWith(cacheFile, [def("tracker")], false, connects);
    const search = await runProxyRequest(cold, { search: "find issues", includeSchemas: true });
    expect(textOf(search)).toContain("- tracker_search_issues: Search issues by text");
    expect(textOf(search)).toContain("args: { query: string; limit?: number /* default 20 */; }");
    const describe = await runProxyRequest(cold, { describe: "tracker-search-issues" });
    expect(textOf(describe)).toContain("tracker_search_issues (server tracker, tool search_issues)");
    const server = await runProxyRequest(cold, { server: "tracker" });
    expect(textOf(server)).toContain("Tracker for the ACME team. Always pass a project key.");
    expect(textOf(server)).toContain('mcp({instructions: "tracker"})');
    const full = await runProxyRequest(cold, { instructions: "tracker" });
    expect(textOf(full)).toContain(INSTRUCTIONS.trim());
    expect(connects).toEqual([]);
    expect(cold.listings.summaries()[0]!.toolCount).toBe(2);
    await cold.shutdown();
  });

  it("reads the cache file only once when the caller has loaded it already", async () => {
    await using dir = await createTempDir();
    const cacheFile = dir.join("agent", "mcp-cache.json");
    const warm = runtimeWith(cacheFile, [def("tracker")], true);
    await warm.catalog.search("issues");
    await warm.shutdown();

    let reads = 0;
    const readFileCounted = ((...args: Parameters<typeof fs.readFile>) => {
      reads += 1;
      return fs.readFile(...args);
    }) as typeof fs.readFile;
    const cache = new MetadataCache({ file: cacheFile, fs: { ...fs, readFile: readFileCounted } });
    await cache.load();
    const runtime = new AdapterRuntime({
      servers: [def("tracker")],
      catalog: { cache, cacheLoaded: true },
      connect: async () => {
        throw new Error("must not connect");
      },
    });
    expect((await runtime.catalog.search("issues")).hits.map((h) => h.tool.name)).toContain("search_issues");
    expect(reads).toBe(1);
    await runtime.shutdown();
  });

  it("lists a server again on reconnect, replacing what the cache held", async () => {
    await using dir = await createTempDir();
    const cacheFile = dir.join("mcp-cache.json");
    const stale = new MetadataCache({ file: cacheFile });
    await stale.put("tracker", definitionHash(def("tracker")), {
      tools: [{ name: "old_tool", inputSchema: { type: "object" } }],
    });
    const connects: string[] = [];
    const runtime = runtimeWith(cacheFile, [def("tracker")], true, connects);
    expect((await runtime.catalog.view()).tools.map((t) => t.name)).toEqual(["old_tool"]);
    expect(connects).toEqual([]);
    await runtime.reconnect("tracker");
    expect((await runtime.catalog.view()).tools.map((t) => t.name)).toEqual([
      "search_issues",
      "create_issue",
    ]);
    await runtime.shutdown();
    const reread = new MetadataCache({ file: cacheFile });
    await reread.load();
    expect(reread.get("tracker", definitionHash(def("tracker")))?.tools.map((t) => t.name)).toEqual([
      "search_issues",
      "create_issue",
    ]);
  });

  it("ignores a cache entry saved for a different definition and reports a server that cannot start", async () => {
    await using dir = await createTempDir();
    const cacheFile = dir.join("mcp-cache.json");
    const warm = runtimeWith(cacheFile, [def("tracker")], true);
    await warm.catalog.view();
    await warm.shutdown();
    const connects: string[] = [];
    const changed = runtimeWith(cacheFile, [def("tracker", { args: ["--other"] })], false, connects);
    const result = await changed.catalog.search("issues");
    expect(result.hits).toEqual([]);
    expect(result.unavailable[0]).toMatchObject({ server: "tracker" });
    expect(result.unavailable[0]!.error).toContain("ENOENT");
    expect(connects).toEqual(["tracker"]);
    await changed.shutdown();
  });

  it("applies searchKeywords, includeTools and regex search, keeping keywords out of the cache", async () => {
    await using dir = await createTempDir();
    const cacheFile = dir.join("mcp-cache.json");
    const tracker = def("tracker", {
      searchKeywords: { "search_*": ["triage-lookup"] },
      excludeTools: ["create_*"],
    });
    const runtime = runtimeWith(cacheFile, [tracker], true);
    expect((await runtime.catalog.search("triage-lookup")).hits.map((h) => h.tool.name)).toEqual([
      "search_issues",
    ]);
    expect((await runtime.catalog.view()).tools.map((t) => t.name)).toEqual(["search_issues"]);
    const regex = await runProxyRequest(runtime, { search: "^tracker_.*issues$", regex: true });
    expect(textOf(regex)).toContain("1 tool matches");
    await expect(runProxyRequest(runtime, { search: "([", regex: true })).rejects.toThrow(
      /valid regular expression/,
    );
    await runtime.shutdown();
    expect(await readFile(cacheFile, "utf8")).not.toContain("triage-lookup");
  });
});
