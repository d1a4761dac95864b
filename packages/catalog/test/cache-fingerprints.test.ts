/**
 * Pin fingerprints kept with a cached listing: the cache file holds each
 * entry's tool fingerprints and a hash of the listing text they were made
 * for; a listing read back takes them (no hashing of its tools for the pin
 * comparison) only while its text still has that hash.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareToolPins, MetadataCache, type ServerListing, toolFingerprint } from "../src/index.js";
import { CacheFileSchema } from "../src/schemas.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "catalog-fingerprints-"));
  file = path.join(dir, "mcp-cache.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const listing: ServerListing = {
  tools: [
    {
      name: "list_issues",
      description: "List issues",
      inputSchema: { type: "object", properties: { q: {} } },
    },
    { name: "close_issue", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
  ],
};
const now = () => 1_000;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The cached listing of `tracker` as a new process reads it. */
async function readBack(): Promise<ServerListing> {
  const cache = new MetadataCache({ file, now });
  await cache.load();
  const read = cache.get("tracker", "key");
  if (!read) throw new Error("no cached listing read back");
  return read;
}

/** The file's `tracker` line, and the listing text in it. */
async function trackerLine(): Promise<{ lines: string[]; line: string; listingText: string }> {
  const lines = (await readFile(file, "utf8")).split("\n");
  const line = lines[1]!;
  return { lines, line, listingText: line.slice(line.indexOf(',"listing":') + ',"listing":'.length, -1) };
}

describe("pin fingerprints kept in the metadata cache", () => {
  it("writes every tool's fingerprint with a hash of the listing text beside the listing", async () => {
    await new MetadataCache({ file, now }).put("tracker", "key", listing);
    const { listingText } = await trackerLine();
    const whole = JSON.parse(await readFile(file, "utf8")) as {
      servers: { tracker: { fingerprints: unknown } };
    };
    expect(whole.servers.tracker.fingerprints).toEqual({
      listing: sha256(listingText),
      tools: listing.tools.map(toolFingerprint),
    });
    // Older versions parse the file whole with the schema; the extra field is dropped, the listing stands.
    const older = CacheFileSchema.parse(JSON.parse(await readFile(file, "utf8")));
    expect(older.servers.tracker?.listing).toEqual(listing);
  });

  it("a listing read back takes the kept fingerprints instead of hashing its tools, also one with non-ASCII text", async () => {
    // The file is read as bytes: the kept hash is of the listing's text as UTF-8, as written.
    const accented = structuredClone(listing);
    accented.tools[0]!.description = "Liste les problèmes ✓ — 課題 🐛";
    for (const written of [listing, accented]) {
      await new MetadataCache({ file, now }).put("tracker", "key", written);
      const { lines, line, listingText } = await trackerLine();
      // Stand-in digests no hash of these tools can give: only taken, never computed.
      const kept = ["a".repeat(64), "b".repeat(64)];
      const fingerprints = JSON.stringify({ listing: sha256(listingText), tools: kept });
      lines[1] = line.replace(/"fingerprints":\{[^}]*\}/, `"fingerprints":${fingerprints}`);
      await writeFile(file, lines.join("\n"));

      const tools = (await readBack()).tools;
      expect(tools[0]?.description).toBe(written.tools[0]?.description);
      expect(tools.map(toolFingerprint)).toEqual(kept);
      const pins = { identity: "id", tools: {} as Record<string, never> };
      const pinned = compareToolPins(pins, "id", tools).changes.map((c) => c.fingerprint);
      expect(pinned).toEqual(kept);
      await rm(file);
    }
  });

  it("a listing whose text changed since is hashed as listed, not given the kept fingerprints", async () => {
    await new MetadataCache({ file, now }).put("tracker", "key", listing);
    const { lines, line } = await trackerLine();
    lines[1] = line.replace('"List issues"', '"List issues, then delete them all"');
    await writeFile(file, lines.join("\n"));

    const tools = (await readBack()).tools;
    expect(tools[0]?.description).toBe("List issues, then delete them all");
    const edited = { ...listing.tools[0]!, description: "List issues, then delete them all" };
    expect(toolFingerprint(tools[0]!)).toBe(toolFingerprint(edited));
    expect(toolFingerprint(tools[0]!)).not.toBe(toolFingerprint(listing.tools[0]!));
  });

  it("drops fingerprints of another form (a file edited by hand) when it writes the file again", async () => {
    const edited = {
      version: 1,
      servers: {
        tracker: { key: "key", savedAt: 1_000, fingerprints: { listing: "nope", tools: ["x"] }, listing },
      },
    };
    await writeFile(file, JSON.stringify(edited));
    const cache = new MetadataCache({ file, now });
    await cache.load();
    expect(cache.get("tracker", "key")?.tools).toHaveLength(2);
    await cache.put("docs", "key-docs", { tools: [] });
    // The line layout, which reads back without parsing the file whole.
    expect((await trackerLine()).line).toMatch(/^"tracker":\{"key":"key","savedAt":1000,"listing":\{/);
    expect((await readBack()).tools.map((t) => t.name)).toEqual(["list_issues", "close_issue"]);
  });

  it("an entry without fingerprints (an older version's) is rewritten with them on the next listing", async () => {
    await new MetadataCache({ file, now }).put("tracker", "key", listing);
    const { lines, line } = await trackerLine();
    lines[1] = line.replace(/,"fingerprints":\{[^}]*\}/, "");
    await writeFile(file, lines.join("\n"));

    const cache = new MetadataCache({ file, now });
    await cache.load();
    await cache.put("tracker", "key", listing);
    expect((await trackerLine()).line).toContain('"fingerprints":{"listing":');
  });
});
