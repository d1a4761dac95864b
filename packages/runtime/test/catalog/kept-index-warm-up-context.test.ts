/**
 * The warm-up's check of the kept search index counts the servers' own text
 * (cached `serverInfo` title and description, and instructions) as the
 * session's first index does: an index kept with that text is found to fit
 * ahead, and the session reads it from the warm-up's bytes instead of
 * building one, over real files. (A file of its own: the warm-up runs once
 * per process.)
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
  instructions: "Notes are kept per notebook.",
  serverInfo: { title: "Notebook", description: "A place for short notes." },
  tools: [
    { name: "add_note", description: "Add a note", inputSchema: { type: "object" } },
    { name: "delete_note", description: "Delete a note", inputSchema: { type: "object" } },
  ],
};
const OTHER = "written by another process after the warm-up read the index";

it("the warm-up finds an index kept with the servers' own text to fit, and the session reads its bytes", async () => {
  await using dir = await createTempDir();
  const cacheFile = dir.join("mcp-cache.json");
  const indexFile = dir.join("mcp-search-index.bin");
  const [server] = (await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: false })).config
    .servers;
  await new MetadataCache({ file: cacheFile }).put("notes", definitionHash(server!), listing);
  const snapshot = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
  const tools = snapshot.servers[0]!.metadata!;
  // The context as the runtime puts it together: title, description, instructions.
  const serverContext = { notes: "Notebook\nA place for short notes.\nNotes are kept per notebook." };
  // Keyed as a session keys it: by its cached listing's hash (shared-metadata.ts).
  const toolsKey = metadataToolsKey([tools]);
  expect(toolsKey).toMatch(/^[0-9a-f]{64}$/);
  await writeFile(indexFile, searchIndexBytes(createSearchIndex(tools, { serverContext }), { toolsKey })!);

  await warmUpSearch(snapshot);
  await writeFile(indexFile, OTHER);

  const session = await createRuntime({ cwd: dir.path, config, npxCacheFile: false, snapshot });
  try {
    expect((await session.catalog.search("delete a note")).hits[0]?.tool.name).toBe("delete_note");
  } finally {
    await session.shutdown();
  }
  // Read from the warm-up's bytes, not built: nothing was written in place of the other process's file.
  expect(await readFile(indexFile, "utf8")).toBe(OTHER);
});
