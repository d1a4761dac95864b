/**
 * The search warm-up takes no step while its host is busy (`whenFree`: in
 * Pi, while the model's tool calls run): held before its first step, it
 * reads no pins and hashes nothing until the host is free, and then does
 * every server. Over a real metadata cache file; the server is never started.
 */
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { expect, it } from "vitest";
import { warmUpSearch } from "../../src/index.js";
import { loadStartupSnapshot } from "../../src/startup.js";

it("waits for the host to be free before each step", async () => {
  await using dir = await createTempDir();
  const cacheFile = dir.join("mcp-cache.json");
  const config = {
    mcpServers: { notes: { command: "notes-not-installed" }, mail: { command: "mail-not-installed" } },
  };
  const listing = {
    tools: [{ name: "add_note", description: "Add a note", inputSchema: { type: "object" } }],
  };
  const cache = new MetadataCache({ file: cacheFile });
  const { servers } = (await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: false })).config;
  for (const server of servers) await cache.put(server.name, definitionHash(server), listing);
  const snapshot = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
  // Which servers' pins the warm-up read (its first steps: one per server, pins on by default).
  const pinsRead: string[] = [];
  const pins = snapshot.cache!.pins.bind(snapshot.cache);
  snapshot.cache!.pins = (name) => {
    pinsRead.push(name);
    return pins(name);
  };

  let free!: () => void;
  const busy = new Promise<void>((resolve) => {
    free = resolve;
  });
  let asked!: () => void;
  const firstAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  let held = true;
  let asks = 0;
  const warmed = warmUpSearch(snapshot, {
    whenFree: () => {
      asks++;
      asked();
      return held ? busy : undefined;
    },
  });
  await firstAsked;
  // Asked before its first step, and nothing done while the host is busy.
  expect(pinsRead).toEqual([]);
  held = false;
  free();
  await warmed;
  expect(pinsRead.sort()).toEqual(["mail", "notes"]);
  // Asked again before every later step too.
  expect(asks).toBeGreaterThan(2);
});
