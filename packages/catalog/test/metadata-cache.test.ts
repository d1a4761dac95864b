import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CACHE_TTL_MS } from "../src/cache-file-constants.js";
import { FAILED_LIST_RETRY_MS, MetadataCache, type ServerListing } from "../src/index.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "catalog-cache-"));
  file = path.join(dir, "agent", "mcp-cache.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A file system for the cache that counts its reads of the file. */
function countingReads() {
  const reads = { count: 0 };
  const fs = {
    readFile: ((...args: Parameters<typeof readFile>) => {
      reads.count++;
      return readFile(...args);
    }) as typeof readFile,
  };
  return { fs, reads };
}

/** Inode and modification time: a write (an atomic replace) changes them. */
async function stampOf(path: string): Promise<string> {
  const s = await stat(path, { bigint: true });
  return `${s.ino}:${s.mtimeNs}`;
}

const listing: ServerListing = {
  tools: [
    { name: "search_issues", description: "Search issues", inputSchema: { type: "object" } },
    { name: "research", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
  ],
  resources: [{ uri: "mem://readme", name: "readme" }],
  prompts: [{ name: "triage", arguments: [{ name: "issue", required: true }] }],
  instructions: "Use project keys.",
};

describe("MetadataCache", () => {
  it("round-trips a listing through the file, keyed by the config hash", async () => {
    const writer = new MetadataCache({ file });
    await writer.put("tracker", "hash-1", listing);
    const reader = new MetadataCache({ file });
    await reader.load();
    expect(reader.get("tracker", "hash-1")).toEqual(listing);
    expect(reader.get("tracker", "hash-2")).toBeUndefined();
    expect(reader.get("other", "hash-1")).toBeUndefined();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(path.dirname(file))).toEqual(["mcp-cache.json"]);
  });

  it("stores only listing fields: nothing else a caller passes reaches the disk", async () => {
    const leaky = {
      ...listing,
      env: { TOKEN: "sekrit-value" },
      tools: [{ ...listing.tools[0]!, headers: { Authorization: "Bearer sekrit-value" } }],
    } as unknown as ServerListing;
    await new MetadataCache({ file }).put("tracker", "hash-1", leaky);
    expect(await readFile(file, "utf8")).not.toContain("sekrit");
  });

  it("expires entries after 7 days and prunes them on the next write", async () => {
    let now = 1_000_000;
    const cache = new MetadataCache({ file, now: () => now });
    await cache.put("old", "k", listing);
    now += CACHE_TTL_MS - 1;
    expect(cache.get("old", "k")).toEqual(listing);
    now += 2;
    expect(cache.get("old", "k")).toBeUndefined();
    await cache.put("new", "k", listing);
    expect(Object.keys(JSON.parse(await readFile(file, "utf8")).servers)).toEqual(["new"]);
  });

  it("serves a listing with a failed list for an hour, one whose list is unsupported for 7 days", async () => {
    let now = 1_000_000;
    const cache = new MetadataCache({ file, now: () => now });
    const error = "MCP error -32603: index down";
    const failed: ServerListing = {
      ...listing,
      skipped: [{ list: "prompts/list", reason: "failed", error }],
    };
    const unsupported: ServerListing = {
      ...listing,
      skipped: [
        { list: "resources/list", reason: "unsupported", error: "MCP error -32601: Method not found" },
      ],
    };
    await cache.put("flaky", "k", failed);
    await cache.put("partial", "k", unsupported);
    now += FAILED_LIST_RETRY_MS;
    const reader = new MetadataCache({ file, now: () => now });
    await reader.load();
    expect(reader.get("flaky", "k")).toEqual(failed);
    now += 1;
    expect(reader.get("flaky", "k")).toBeUndefined();
    expect(reader.get("partial", "k")).toEqual(unsupported);
    now += CACHE_TTL_MS - FAILED_LIST_RETRY_MS;
    expect(reader.get("partial", "k")).toBeUndefined();
  });

  it("writes puts made while a write runs together, and every one lands in the file", async () => {
    const { fs, reads } = countingReads();
    const cache = new MetadataCache({ file, fs });
    const names = Array.from({ length: 10 }, (_, i) => `server_${i}`);
    await Promise.all(names.map((name) => cache.put(name, "k", listing)));
    // Made before the first write started: one read-merge-write for all ten.
    expect(reads.count).toBe(1);
    // Puts made while a write runs go out together in the next write.
    const before = await stampOf(file);
    const running = cache.put("late_0", "k", listing);
    await new Promise((resolve) => setImmediate(resolve)); // the write has begun
    const queued = [cache.put("late_1", "k", listing), cache.put("late_2", "k", listing)];
    await Promise.all([running, ...queued]);
    expect(await stampOf(file)).not.toBe(before);
    // The file was as this process last wrote it: not read again.
    expect(reads.count).toBe(1);
    const reread = new MetadataCache({ file });
    await reread.load();
    for (const name of [...names, "late_0", "late_1", "late_2"])
      expect(reread.get(name, "k")).toEqual(listing);
  });

  it("reads the file again before a write when another process changed it", async () => {
    const { fs, reads } = countingReads();
    const mine = new MetadataCache({ file, fs });
    await mine.put("alpha", "k", listing);
    await new MetadataCache({ file }).put("beta", "k", listing); // another process
    await mine.put("gamma", "k", listing);
    expect(reads.count).toBe(2);
    const reread = new MetadataCache({ file });
    await reread.load();
    for (const name of ["alpha", "beta", "gamma"]) expect(reread.get(name, "k")).toEqual(listing);
  });

  it("does not rewrite the file for a listing it saved recently, but does once half the TTL passed", async () => {
    let now = 1_000_000;
    const cache = new MetadataCache({ file, now: () => now });
    await cache.put("tracker", "k", listing);
    const first = await stampOf(file);
    now += 60_000;
    await cache.put("tracker", "k", structuredClone(listing));
    expect(await stampOf(file)).toBe(first); // any write would have replaced the file
    await cache.put("tracker", "k", { ...listing, instructions: "Changed." });
    const second = await stampOf(file);
    expect(second).not.toBe(first);
    now += CACHE_TTL_MS / 2 + 1;
    await cache.put("tracker", "k", { ...listing, instructions: "Changed." });
    expect(await stampOf(file)).not.toBe(second);
    expect(JSON.parse(await readFile(file, "utf8")).servers.tracker.savedAt).toBe(now);
  });

  it.each([
    ["corrupt", "{not json"],
    ["truncated", '{"version":1,"servers":{"tracker":{"key":"k","savedAt":1,'],
    ["foreign-version", JSON.stringify({ version: 99, servers: {} })],
    ["wrong-shape", JSON.stringify({ version: 1, servers: { tracker: { key: 5 } } })],
    ["empty", ""],
  ])("ignores a %s file with a message, then rebuilds it", async (_kind, text) => {
    await new MetadataCache({ file }).put("seed", "k", listing); // creates the directory
    await writeFile(file, text);
    const problems: string[] = [];
    const cache = new MetadataCache({ file, onProblem: (m) => problems.push(m) });
    await cache.load();
    expect(cache.get("tracker", "k")).toBeUndefined();
    expect(problems[0]).toMatch(/ignoring .*mcp-cache\.json: .*rebuilt/);
    await cache.put("tracker", "k", listing);
    const reread = new MetadataCache({ file });
    await reread.load();
    expect(reread.get("tracker", "k")).toEqual(listing);
  });

  it("treats a missing file as an empty cache without complaint", async () => {
    const problems: string[] = [];
    const cache = new MetadataCache({ file, onProblem: (m) => problems.push(m) });
    await cache.load();
    expect(cache.get("x", "k")).toBeUndefined();
    expect(problems).toEqual([]);
  });

  it("keeps both servers when two processes write at once, and leaves no temp or lock files", async () => {
    const script = fileURLToPath(new URL("./fixtures/cache-writer.mjs", import.meta.url));
    const run = (server: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, [script, file, server, "25"], {
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (chunk) => {
          stderr += chunk;
        });
        child.on("error", reject);
        child.on("exit", (code) =>
          code === 0 ? resolve(code) : reject(new Error(`writer ${server}: ${stderr}`)),
        );
      });
    await Promise.all([run("alpha"), run("beta")]);
    const cache = new MetadataCache({ file });
    await cache.load();
    expect(cache.get("alpha", "key")?.tools[0]?.name).toBe("tool_24");
    expect(cache.get("beta", "key")?.tools[0]?.name).toBe("tool_24");
    expect(await readdir(path.dirname(file))).toEqual(["mcp-cache.json"]);
  }, 60_000);

  it("takes over a stale lock left by a crashed writer", async () => {
    await new MetadataCache({ file }).put("seed", "k", listing);
    await writeFile(`${file}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    const { utimes } = await import("node:fs/promises");
    await utimes(`${file}.lock`, old, old);
    await new MetadataCache({ file }).put("after", "k", listing);
    const cache = new MetadataCache({ file });
    await cache.load();
    expect(cache.get("after", "k")).toBeDefined();
  });
});
