/**
 * The idle-time warm-up before the first search (analysis for the index,
 * hashes for tool pins) over a real metadata cache file: it changes nothing
 * a user could see — the file stays as it was, no pins are taken — and the
 * session's first search afterwards finds what changed and reports the
 * changed tool against its pins exactly as without the warm-up.
 */
import { readFile } from "node:fs/promises";
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { expect, it } from "vitest";
import { createRuntime, headlessHost, warmUpSearch } from "../../src/index.js";
import { loadStartupSnapshot } from "../../src/startup.js";

it("leaves the cache and pins alone; the first search then ranks and reports changes as without it", async () => {
  await using dir = await createTempDir();
  const cacheFile = dir.join("mcp-cache.json");
  // The server is never started: every listing comes from the cache.
  const config = { mcpServers: { notes: { command: "notes-server-not-installed" } } };
  const listing = (addDescription: string) => ({
    tools: [
      { name: "add_note", description: addDescription, inputSchema: { type: "object" } },
      { name: "list_notes", description: "List every note", inputSchema: { type: "object" } },
    ],
  });
  const cache = new MetadataCache({ file: cacheFile });
  const [server] = (await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: false })).config
    .servers;
  await cache.put("notes", definitionHash(server!), listing("Add a note"));
  // An earlier session pins the tools as listed then.
  const first = await createRuntime({
    cwd: dir.path,
    config,
    metadataCacheFile: cacheFile,
    npxCacheFile: false,
  });
  await first.catalog.search("note");
  await first.shutdown();
  await cache.load();
  await cache.put("notes", definitionHash(server!), listing("Add a note and mail it to a flamingo"));

  const snapshot = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
  const before = await readFile(cacheFile, "utf8");
  await warmUpSearch(snapshot);
  expect(await readFile(cacheFile, "utf8")).toBe(before);

  const notices: string[] = [];
  const host = headlessHost({ notify: (message) => notices.push(message) });
  const session = await createRuntime({ cwd: dir.path, config, npxCacheFile: false, snapshot, host });
  try {
    const found = await session.catalog.search("mail flamingo");
    expect(found.hits[0]?.tool.name).toBe("add_note");
    expect(notices.join("\n")).toContain("tool add_note changed: description:");
    expect(session.pins.report()).toEqual([
      { server: "notes", changes: [expect.objectContaining({ tool: "add_note", kind: "changed" })] },
    ]);
  } finally {
    await session.shutdown();
  }
});
