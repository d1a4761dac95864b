/**
 * The cache file's line layout (one server per line, instructions and
 * prompts before tools): older versions still read what this one writes,
 * this one reads what they wrote, and an entry whose lists turn out
 * malformed when first read is dropped with a message naming the server.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CACHE_VERSION } from "../src/cache-file-constants.js";
import { MetadataCache, type ServerListing } from "../src/index.js";
import { CacheFileSchema } from "../src/schemas.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "catalog-layout-"));
  file = path.join(dir, "mcp-cache.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const docs: ServerListing = {
  tools: [{ name: "search_docs", description: "Search the docs", inputSchema: { type: "object" } }],
  resources: [{ uri: "docs://index", name: "index" }],
  prompts: [{ name: "summarise", arguments: [{ name: "page", required: true }] }],
  instructions: 'Cite pages. Quotes " and commas, "tools":[ inside text are fine.',
  serverInfo: { title: "Docs", description: 'The handbook, "tools":[ and all.' },
  skipped: [
    { list: "resources/templates/list", reason: "unsupported", error: "MCP error -32601: Method not found" },
  ],
};
const tracker: ServerListing = {
  tools: [{ name: "list_issues", inputSchema: { type: "object", properties: { q: { type: "string" } } } }],
};

async function written(): Promise<string> {
  const cache = new MetadataCache({ file, now: () => 1_000 });
  await cache.put("docs", "key-docs", docs);
  await cache.put("tracker", "key-tracker", tracker);
  await cache.updatePins({ docs: () => ({ identity: "id", tools: {} }) });
  return readFile(file, "utf8");
}

describe("the cache file's layout", () => {
  it("writes one server per line, instructions and prompts first, and stays one JSON document older versions read", async () => {
    const text = await written();
    const lines = text.split("\n");
    expect(lines[0]).toBe(`{"version":${CACHE_VERSION},"servers":{`);
    expect(lines[1]).toMatch(
      /^"docs":\{"key":"key-docs","savedAt":1000,"fingerprints":\{[^}]*\},"listing":\{"instructions":.*"serverInfo":.*"prompts":.*"skipped":.*"tools":/,
    );
    expect(lines[2]).toMatch(/^"tracker":\{"key":"key-tracker"/);
    expect(lines[3]).toMatch(/^\},"pins":\{"docs":/);
    // What an older version does with the file: JSON.parse, then the file schema.
    const older = CacheFileSchema.parse(JSON.parse(text));
    expect(older.servers.docs?.listing).toEqual(docs);
    expect(older.servers.tracker?.listing).toEqual(tracker);
    expect(older.pins?.docs?.identity).toBe("id");
  });

  it("reads back every field, the lists when first read", async () => {
    await written();
    const reader = new MetadataCache({ file, now: () => 2_000 });
    await reader.load();
    const listing = reader.get("docs", "key-docs");
    expect(listing?.instructions).toBe(docs.instructions);
    expect(listing?.prompts).toEqual(docs.prompts);
    expect(listing?.skipped).toEqual(docs.skipped);
    expect(listing?.serverInfo).toEqual(docs.serverInfo);
    expect(listing).toEqual(docs);
    expect(reader.get("tracker", "key-tracker")).toEqual(tracker);
    expect(reader.get("tracker", "other-key")).toBeUndefined();
    expect(reader.pins("docs")?.identity).toBe("id");
  });

  it("reads a file an older version wrote (one line) and writes it back in this layout", async () => {
    const old = {
      version: CACHE_VERSION,
      servers: { tracker: { key: "key-tracker", savedAt: 1_000, listing: tracker } },
    };
    await writeFile(file, `${JSON.stringify(old)}\n`);
    const cache = new MetadataCache({ file, now: () => 2_000 });
    await cache.load();
    expect(cache.get("tracker", "key-tracker")).toEqual(tracker);
    await cache.put("docs", "key-docs", docs);
    const lines = (await readFile(file, "utf8")).split("\n");
    expect(lines[1]).toMatch(/^"tracker":/);
    expect(lines[2]).toMatch(/^"docs":/);
  });

  it("does not rewrite the file for a listing read back from it unchanged", async () => {
    await written();
    const before = (await stat(file, { bigint: true })).mtimeNs;
    const again = new MetadataCache({ file, now: () => 2_000 });
    await again.load();
    await again.put("docs", "key-docs", docs);
    expect((await stat(file, { bigint: true })).mtimeNs).toBe(before);
  });

  it("drops an entry whose tools turn out malformed when first read, names the server, and keeps the others", async () => {
    const text = await written();
    await writeFile(file, text.replace('"name":"list_issues"', '"name":42'));
    const problems: string[] = [];
    const cache = new MetadataCache({ file, now: () => 2_000, onProblem: (m) => problems.push(m) });
    await cache.load();
    expect(problems).toEqual([]);
    expect(cache.get("tracker", "key-tracker")?.tools).toEqual([]);
    expect(problems).toEqual([
      `ignoring the cached listing of "tracker" in ${file}: unexpected shape; it will be rebuilt`,
    ]);
    expect(cache.get("tracker", "key-tracker")).toBeUndefined();
    expect(cache.get("docs", "key-docs")).toEqual(docs);
    await cache.put("notes", "key-notes", tracker);
    const servers = Object.keys(JSON.parse(await readFile(file, "utf8")).servers);
    expect(servers.sort()).toEqual(["docs", "notes"]);
  });

  it("parses a file in this layout with a broken line whole, and ignores it when that fails", async () => {
    const text = await written();
    await writeFile(file, text.replace('"tracker":{"key"', '"tracker":{"key" '));
    const ok = new MetadataCache({ file, now: () => 2_000 });
    await ok.load();
    expect(ok.get("tracker", "key-tracker")).toEqual(tracker);
    await writeFile(file, text.slice(0, text.length - 40));
    const problems: string[] = [];
    const truncated = new MetadataCache({ file, now: () => 2_000, onProblem: (m) => problems.push(m) });
    await truncated.load();
    expect(truncated.get("docs", "key-docs")).toBeUndefined();
    expect(problems[0]).toContain("not valid JSON");
  });
});
