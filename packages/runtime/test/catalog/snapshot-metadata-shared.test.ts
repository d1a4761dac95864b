/**
 * The session's catalog takes a cached server's tool metadata as the startup
 * snapshot built it (the same objects, so the first search's kept-index check
 * finds its inputs unchanged at once), and still tells the warnings that
 * build gave: a cached listing naming a tool twice is reported to the
 * session's host. Over a real cache file; the server is never started.
 */
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { expect, it } from "vitest";
import { createRuntime, headlessHost } from "../../src/index.js";
import { loadStartupSnapshot } from "../../src/startup.js";

const config = { mcpServers: { notes: { command: "notes-server-not-installed" } } };
const listing = {
  tools: [
    { name: "add_note", description: "Add a note", inputSchema: { type: "object" } },
    { name: "delete_note", description: "Delete a note", inputSchema: { type: "object" } },
    { name: "delete_note", description: "Delete a note again", inputSchema: { type: "object" } },
  ],
};

it("the session's catalog shares the snapshot's metadata of a cached server and tells its warnings", async () => {
  await using dir = await createTempDir();
  const cacheFile = dir.join("mcp-cache.json");
  const [server] = (await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: false })).config
    .servers;
  await new MetadataCache({ file: cacheFile }).put("notes", definitionHash(server!), listing);
  const snapshot = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
  const built = snapshot.servers[0]!.metadata!;
  expect(built.map((t) => t.name)).toEqual(["add_note", "delete_note"]);

  const notices: string[] = [];
  const session = await createRuntime({
    cwd: dir.path,
    config,
    npxCacheFile: false,
    snapshot,
    host: headlessHost({ notify: (message) => notices.push(message) }),
  });
  try {
    const found = await session.catalog.search("delete a note");
    expect(found.hits[0]?.tool).toBe(built[1]);
    expect(notices).toEqual([`MCP server "notes" listed tool "delete_note" twice; only the first is used`]);
  } finally {
    await session.shutdown();
  }
});
