/**
 * The kept search index is keyed by the cached listings' hashes, not by a
 * thousand tools' text: a session that listed a real server live writes the
 * index with a tools key, and the next session, reading that listing back
 * from the cache file, names its tools with the same key, reads the index
 * and leaves the file as it was. A changed listing gives another key.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import type * as Search from "@pi-mcp-adapter/search";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { expect, it, vi } from "vitest";
import { createRuntime, headlessHost } from "../../src/index.js";

/** The tools key each kept-index call of search was given, in order. */
const keys = vi.hoisted(() => [] as { call: string; toolsKey: string | undefined }[]);
vi.mock("@pi-mcp-adapter/search", async (importOriginal) => {
  const search = await importOriginal<typeof Search>();
  return {
    ...search,
    searchIndexBytes: (index: Search.SearchIndex, options?: Search.KeptToolsKey) => {
      keys.push({ call: "write", toolsKey: options?.toolsKey });
      return search.searchIndexBytes(index, options);
    },
    searchIndexFromBytes: (bytes: Uint8Array, tools: never, options?: Search.KeptIndexOptions) => {
      keys.push({ call: "read", toolsKey: options?.toolsKey });
      return search.searchIndexFromBytes(bytes, tools, options);
    },
  };
});

it("a live listing's session writes the index under the key the next session reads it by", async () => {
  await using dir = await createTempDir();
  const cacheFile = dir.join("mcp-cache.json");
  const indexFile = dir.join("mcp-search-index.bin");
  const config = (tools?: string) => ({
    mcpServers: {
      fixture: {
        command: process.execPath,
        args: [stdioFixtureServerPath],
        ...(tools ? { env: { FIXTURE_TOOLS_FILE: tools } } : {}),
      },
    },
  });
  const session = async (cfg: ReturnType<typeof config>) => {
    const runtime = await createRuntime({
      cwd: dir.path,
      config: cfg,
      metadataCacheFile: cacheFile,
      npxCacheFile: false,
      host: headlessHost({ notify: () => {} }),
    });
    try {
      return (await runtime.catalog.search("city forecast")).hits.map((h) => h.tool.name);
    } finally {
      await runtime.shutdown();
    }
  };

  // First session: no cache, the server is listed live; its index is written at shutdown.
  const first = await session(config());
  expect(first[0]).toBe("get_weather");
  const written = keys.filter((k) => k.call === "write");
  expect(written).toHaveLength(1);
  expect(written[0]!.toolsKey).toMatch(/^[0-9a-f]{64}$/);
  const before = await stat(indexFile);
  const bytes = await readFile(indexFile);

  // Second session: the listing comes from the cache file; the same key finds the index, nothing is rebuilt.
  keys.length = 0;
  expect(await session(config())).toEqual(first);
  expect(keys).toEqual([{ call: "read", toolsKey: written[0]!.toolsKey }]);
  const after = await stat(indexFile);
  expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  expect(await readFile(indexFile)).toEqual(bytes);

  // A server that lists one more tool: another key, the index built again and written under it.
  keys.length = 0;
  const tools = dir.join("tools.json");
  await writeFile(
    tools,
    JSON.stringify({ city_forecast_alerts: { description: "Weather alerts for a city." } }),
  );
  expect(await session(config(tools))).toContain("city_forecast_alerts");
  const rewritten = keys.filter((k) => k.call === "write");
  expect(rewritten).toHaveLength(1);
  expect(rewritten[0]!.toolsKey).toMatch(/^[0-9a-f]{64}$/);
  expect(rewritten[0]!.toolsKey).not.toBe(written[0]!.toolsKey);
});
