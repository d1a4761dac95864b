/**
 * The caching hints of 2026-07-28 listings (`ttlMs`, `cacheScope`), against
 * a real SDK v2 server over Streamable HTTP that sends them (its `cacheHints`
 * option) and counts the `tools/list` requests it serves: a listing past its
 * `ttlMs` is listed again at its next use unless the server tells of list
 * changes; a remote server's private listing stays out of the shared metadata
 * cache file, a public one is kept there (see catalog/listing-freshness.ts).
 */
import { spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { processEnvironment } from "@pi-mcp-adapter/core";
import { createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdapterRuntime, createRuntime } from "../../src/index.js";

const serverScript = fileURLToPath(new URL("../fixtures/v2-cache-hint-server.mjs", import.meta.url));

let temp: TempDir;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  temp = await createTempDir();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await temp.remove();
});

async function serveHints(hints: object, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [serverScript], {
    env: { ...process.env, CACHE_HINTS: JSON.stringify({ "tools/list": hints }), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(async () => {
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", () => reject(new Error("the cache-hint fixture did not start")));
  });
  const url = (JSON.parse(line) as { url: string }).url;
  const toolsLists = async () =>
    ((await (await fetch(new URL("/stats", url))).json()) as { toolsList: number }).toolsList;
  return { url, toolsLists };
}

async function runtimeFor(url: string): Promise<AdapterRuntime> {
  const runtime = await createRuntime({
    cwd: temp.path,
    config: { mcpServers: { hinted: { url, protocol: "2026-07-28" } } },
    environment: processEnvironment({ agentDir: temp.join("agent") }),
    metadataCacheFile: temp.join("mcp-cache.json"),
    npxCacheFile: false,
    serverLogFile: false,
  });
  cleanups.push(() => runtime.shutdown());
  return runtime;
}

const echo = async (runtime: AdapterRuntime, text: string) => {
  const result = await runtime.call("hinted_echo", { text });
  return result.content.map((b) => ("text" in b ? b.text : "")).join("");
};

/** Calls until the server has served more than `count` listings (a generous deadline: the machine is shared). */
async function callUntilListed(runtime: AdapterRuntime, lists: () => Promise<number>, count: number) {
  const deadline = Date.now() + 20_000;
  for (let i = 0; (await lists()) <= count; i++) {
    if (Date.now() > deadline) throw new Error("the server was not listed again");
    expect(await echo(runtime, `call ${i}`)).toBe(`call ${i}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cachedServers = async () =>
  Object.keys(
    JSON.parse(await readFile(temp.join("mcp-cache.json"), "utf8").catch(() => "{}")).servers ?? {},
  );

describe("ttlMs of a live listing", () => {
  it("past its ttlMs, a server that tells of no list changes is listed again at the next call", async () => {
    const server = await serveHints({ ttlMs: 300, cacheScope: "public" }, { LIST_CHANGED: "0" });
    const runtime = await runtimeFor(server.url);
    expect(await echo(runtime, "one")).toBe("one");
    const first = await server.toolsLists();
    expect(first).toBeGreaterThan(0);
    await callUntilListed(runtime, server.toolsLists, first);
    expect(await server.toolsLists()).toBe(first + 1);
  });

  it("a server that tells of list changes keeps its listing current: no TTL re-listing", async () => {
    const server = await serveHints({ ttlMs: 0, cacheScope: "public" });
    const runtime = await runtimeFor(server.url);
    expect(await echo(runtime, "one")).toBe("one");
    const first = await server.toolsLists();
    expect(await echo(runtime, "two")).toBe("two");
    expect(await echo(runtime, "three")).toBe("three");
    expect(await server.toolsLists()).toBe(first);
  });
});

describe("cacheScope of a remote server's listing", () => {
  it("private: kept in the user's own metadata cache file (0600), as public is", async () => {
    const server = await serveHints({ ttlMs: 60_000, cacheScope: "private" });
    const runtime = await runtimeFor(server.url);
    expect(await echo(runtime, "mine")).toBe("mine");
    expect(await cachedServers()).toContain("hinted");
    if (process.platform !== "win32") {
      expect((await stat(temp.join("mcp-cache.json"))).mode & 0o077).toBe(0);
    }
  });

  it("a call never waits for the re-listing of an outdated listing: the current one serves", async () => {
    const server = await serveHints(
      { ttlMs: 0, cacheScope: "public" },
      { LIST_CHANGED: "0", HOLD_RELIST: "1" },
    );
    const runtime = await runtimeFor(server.url);
    expect(await echo(runtime, "one")).toBe("one");
    // The listing is outdated at once (ttlMs 0): this call starts a re-listing the server holds.
    expect(await echo(runtime, "two")).toBe("two");
    expect(await echo(runtime, "three")).toBe("three");
    await fetch(new URL("/release", server.url));
  });

  it("public: written to the metadata cache file as before", async () => {
    const server = await serveHints({ ttlMs: 60_000, cacheScope: "public" });
    const runtime = await runtimeFor(server.url);
    expect(await echo(runtime, "shared")).toBe("shared");
    expect(await cachedServers()).toContain("hinted");
  });
});
