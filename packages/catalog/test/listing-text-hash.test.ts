/**
 * `listingTextHash`: one name for a listing's content across processes — the
 * listing a session stored and the one the next session reads back from the
 * file have the same hash, a changed listing another, and a listing the
 * cache never held none.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listingTextHash, MetadataCache, type ServerListing } from "../src/index.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "catalog-listing-hash-"));
  file = path.join(dir, "mcp-cache.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const now = () => 1_000;
/** As a server sends it: fields the cache does not keep, keys in the server's order. */
const listed = (description: string): ServerListing =>
  ({
    tools: [{ inputSchema: { type: "object" }, name: "list_issues", description, extra: 1 }],
    resources: [{ uri: "file:///a", name: "a" }],
    instructions: "Use the tracker.",
  }) as unknown as ServerListing;

async function readBack(): Promise<ServerListing> {
  const cache = new MetadataCache({ file, now });
  await cache.load();
  return cache.get("tracker", "key")!;
}

describe("the hash of a cached listing's text", () => {
  it("is the same for the listing stored and for it read back in a new process; none for others", async () => {
    const live = listed("List issues");
    expect(listingTextHash(live)).toBeUndefined();
    await new MetadataCache({ file, now }).put("tracker", "key", live);
    const stored = listingTextHash(live);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    const read = await readBack();
    expect(listingTextHash(read)).toBe(stored);
    // Its lists parsed: still the same listing.
    expect(read.tools[0]?.name).toBe("list_issues");
    expect(listingTextHash(read)).toBe(stored);
    expect(listingTextHash(listed("List issues"))).toBeUndefined();
  });

  it("is the file's for a listing stored again unchanged, and another for changed content", async () => {
    await new MetadataCache({ file, now }).put("tracker", "key", listed("List issues"));
    const first = listingTextHash(await readBack());
    const cache = new MetadataCache({ file, now });
    await cache.load();
    const again = listed("List issues");
    await cache.put("tracker", "key", again);
    expect(listingTextHash(again)).toBe(first);
    const changed = listed("List open issues");
    await cache.put("tracker", "key", changed);
    expect(listingTextHash(changed)).toMatch(/^[0-9a-f]{64}$/);
    expect(listingTextHash(changed)).not.toBe(first);
    expect(listingTextHash(await readBack())).toBe(listingTextHash(changed));
  });

  it("is gone once a read listing is changed, and for a listing whose lists are malformed", async () => {
    await new MetadataCache({ file, now }).put("tracker", "key", listed("List issues"));
    const read = await readBack();
    read.tools = [];
    expect(listingTextHash(read)).toBeUndefined();
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace('"tools":[{', '"tools":[7,{'));
    const broken = await readBack();
    expect(broken.tools).toEqual([]);
    expect(listingTextHash(broken)).toBeUndefined();
  });
});
