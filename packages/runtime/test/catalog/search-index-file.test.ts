/**
 * The search index kept beside the metadata cache (`mcp-search-index.bin`),
 * over real files: a session's first search writes it, the next session with
 * the same tools reads it (and ranks alike, leaving the file as it was), and
 * a stale, damaged or foreign file is passed over in silence — the search
 * finds what the tools say now — and replaced; the file is written before
 * the session's shutdown settles.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { expect, it } from "vitest";
import { createRuntime, headlessHost } from "../../src/index.js";
import { loadStartupSnapshot } from "../../src/startup.js";

// The server is never started: every listing comes from the cache.
const config = { mcpServers: { notes: { command: "notes-server-not-installed" } } };
const listing = (addDescription: string) => ({
  tools: [
    { name: "add_note", description: addDescription, inputSchema: { type: "object" } },
    { name: "list_notes", description: "List every note in a notebook", inputSchema: { type: "object" } },
    {
      name: "delete_note",
      description: "Delete a note",
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
    },
  ],
});

async function setUp(dir: { path: string; join(name: string): string }) {
  const cacheFile = dir.join("mcp-cache.json");
  const cache = new MetadataCache({ file: cacheFile });
  const [server] = (await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: false })).config
    .servers;
  const list = (description: string) => cache.put("notes", definitionHash(server!), listing(description));
  await list("Add a note");
  const notices: string[] = [];
  /** One session: the hits of `queries`, each as "name score". */
  const session = async (...queries: string[]) => {
    const runtime = await createRuntime({
      cwd: dir.path,
      config,
      metadataCacheFile: cacheFile,
      npxCacheFile: false,
      host: headlessHost({ notify: (message) => notices.push(message) }),
    });
    try {
      const hits: string[][] = [];
      for (const q of queries)
        hits.push((await runtime.catalog.search(q)).hits.map((h) => `${h.tool.name} ${h.score}`));
      return hits;
    } finally {
      await runtime.shutdown();
    }
  };
  return { indexFile: dir.join("mcp-search-index.bin"), list, session, notices };
}

const isIndex = async (file: string) =>
  (await readFile(file).catch(() => Buffer.alloc(0))).subarray(0, 4).toString() === "PMSI";

it("is written by a first search and read by the next session, which ranks alike and leaves it as it was", async () => {
  await using dir = await createTempDir();
  const { indexFile, session, notices } = await setUp(dir);
  const queries = ["note", "delete a note", "list notebook"];
  const first = await session(...queries);
  expect(first[1]![0]).toMatch(/^delete_note /);
  // Written before the session's shutdown settles, so a session ending right after one search keeps it.
  expect(await isIndex(indexFile)).toBe(true);
  const written = await stat(indexFile);
  expect(written.mode & 0o777).toBe(0o600);
  const bytes = await readFile(indexFile);

  expect(await session(...queries)).toEqual(first);
  // Read, not rebuilt: a rebuilt index would be written again (a new file in its place).
  const after = await stat(indexFile);
  expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  expect(await readFile(indexFile)).toEqual(bytes);
  expect(notices).toEqual([]);
});

it("is passed over when the tools changed since it was written, and replaced", async () => {
  await using dir = await createTempDir();
  const { indexFile, list, session } = await setUp(dir);
  expect(await session("flamingo")).toEqual([[]]);
  expect(await isIndex(indexFile)).toBe(true);
  const stale = await readFile(indexFile);

  await list("Add a note and mail it to a flamingo");
  const [hits] = await session("flamingo");
  expect(hits![0]).toMatch(/^add_note /);
  expect(await readFile(indexFile)).not.toEqual(stale);
  expect(await isIndex(indexFile)).toBe(true);
});

it("is passed over in silence when damaged or of another format, and replaced", async () => {
  await using dir = await createTempDir();
  const { indexFile, session, notices } = await setUp(dir);
  const expected = await session("delete a note");
  expect(await isIndex(indexFile)).toBe(true);
  const good = await readFile(indexFile);

  const otherFormat = Buffer.from(good);
  otherFormat.writeUInt32LE(99, 4);
  for (const bad of [Buffer.from("not an index at all"), good.subarray(0, good.length - 5), otherFormat]) {
    await writeFile(indexFile, bad);
    expect(await session("delete a note")).toEqual(expected);
    expect(await readFile(indexFile)).toEqual(good);
  }
  expect(notices).toEqual([]);
});
