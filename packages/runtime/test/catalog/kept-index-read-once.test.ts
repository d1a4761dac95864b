/**
 * The kept search index is read once per process: the idle-time warm-up's
 * check and the session's first index share the bytes it read, over real
 * files. (A file of its own: the warm-up runs once per process.)
 */
import { readFile, writeFile } from "node:fs/promises";
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import { createSearchIndex, searchIndexBytes } from "@pi-mcp-adapter/search";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { expect, it } from "vitest";
import { metadataToolsKey } from "../../src/catalog/shared-metadata.js";
import { createRuntime, warmUpSearch } from "../../src/index.js";
import { loadStartupSnapshot } from "../../src/startup.js";

// The server is never started: every listing comes from the cache.
const config = { mcpServers: { notes: { command: "notes-server-not-installed" } } };
const listing = {
  tools: [
    { name: "add_note", description: "Add a note", inputSchema: { type: "object" } },
    {
      name: "delete_note",
      description: "Delete a note",
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
    },
  ],
};

it("the session's first search uses the bytes the warm-up read, not the file as it is later", async () => {
  await using dir = await createTempDir();
  const cacheFile = dir.join("mcp-cache.json");
  const indexFile = dir.join("mcp-search-index.bin");
  const [server] = (await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: false })).config
    .servers;
  await new MetadataCache({ file: cacheFile }).put("notes", definitionHash(server!), listing);
  const snapshot = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
  // The index an earlier process kept (made here: a session of this process would skip the warm-up's check).
  const tools = snapshot.servers[0]!.metadata!;
  // Keyed as a session keys it: by its cached listing's hash (shared-metadata.ts).
  const toolsKey = metadataToolsKey([tools]);
  expect(toolsKey).toMatch(/^[0-9a-f]{64}$/);
  await writeFile(indexFile, searchIndexBytes(createSearchIndex(tools), { toolsKey })!);

  await warmUpSearch(snapshot);
  // Whatever the file holds from now on is not read again by this process.
  await writeFile(indexFile, "written by another process after the warm-up read the index");

  const session = await createRuntime({ cwd: dir.path, config, npxCacheFile: false, snapshot });
  try {
    const found = await session.catalog.search("delete a note");
    expect(found.hits[0]?.tool.name).toBe("delete_note");
  } finally {
    await session.shutdown();
  }
  // Read from the warm-up's bytes, not built: nothing was written in place of the other process's file.
  expect(await readFile(indexFile, "utf8")).toBe(
    "written by another process after the warm-up read the index",
  );
});
