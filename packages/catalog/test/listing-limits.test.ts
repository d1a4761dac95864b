import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RemoteTool } from "@pi-mcp-adapter/core";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  buildServerMetadata,
  CatalogError,
  MAX_LISTING_BYTES,
  MAX_LISTING_ENTRIES,
  MetadataCache,
  type ServerListing,
} from "../src/index.js";

const tools = (count: number): RemoteTool[] =>
  Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: "object" } }));

describe("what a server may put in the catalog", () => {
  it("refuses a list of more than 10,000 entries, naming the server and the bound", () => {
    expect(() => buildServerMetadata("big", { tools: tools(15_000) })).toThrow(
      'Server "big" listed 15,000 tools; a server may list at most 10,000 tools, so none of its entries were taken',
    );
    expect(buildServerMetadata("big", { tools: tools(MAX_LISTING_ENTRIES) })).toHaveLength(
      MAX_LISTING_ENTRIES,
    );
  });

  it("refuses more than 4 MiB of descriptors (one huge description, or instructions), with code catalog_too_large", () => {
    const huge = "x".repeat(50 * 1024 * 1024);
    const withDescription: ServerListing = { tools: [{ ...tools(1)[0]!, description: huge }] };
    let error: unknown;
    try {
      buildServerMetadata("hostile", withDescription);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe("catalog_too_large");
    expect((error as Error).message).toBe(
      'Server "hostile" listed more than 4 MiB of tool, resource and prompt descriptions (at least 50.0 MiB); a server may list at most 4 MiB, so none of its entries were taken',
    );
    expect(() => buildServerMetadata("chatty", { tools: [], instructions: huge })).toThrow(/"chatty".*4 MiB/);
    const justUnder = "y".repeat(MAX_LISTING_BYTES - 1024);
    expect(buildServerMetadata("ok", { tools: [{ ...tools(1)[0]!, description: justUnder }] })).toHaveLength(
      1,
    );
  });

  it("never writes an oversized listing to the metadata cache, and ignores one an older version wrote", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "catalog-limits-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, "mcp-cache.json");
    const cache = new MetadataCache({ file });
    await cache.put("small", "k1", { tools: tools(2) });
    await expect(cache.put("big", "k2", { tools: tools(15_000) })).rejects.toThrow(
      /"big" listed 15,000 tools/,
    );
    const onDisk = JSON.parse(await readFile(file, "utf8")) as { servers: Record<string, unknown> };
    expect(Object.keys(onDisk.servers)).toEqual(["small"]);

    // A file as an older version left it: an entry of 5 MiB beside a small one.
    const old = { ...onDisk, servers: { ...onDisk.servers } } as { servers: Record<string, unknown> };
    old.servers.huge = {
      key: "k3",
      savedAt: Date.now(),
      listing: {
        tools: [{ name: "t", inputSchema: { type: "object" }, description: "z".repeat(5 * 1024 * 1024) }],
      },
    };
    await writeFile(file, JSON.stringify(old));
    const reread = new MetadataCache({ file });
    await reread.load();
    expect(reread.get("huge", "k3")).toBeUndefined();
    expect(reread.get("small", "k1")?.tools).toHaveLength(2);
  });

  it("in a cache file past the bound as a whole, serves its small listings and refuses one changed past it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "catalog-limits-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, "mcp-cache.json");
    const writer = new MetadataCache({ file });
    await writer.put("small", "k1", { tools: tools(3) });
    const wordy = {
      name: "t",
      inputSchema: { type: "object" },
      description: "w".repeat(MAX_LISTING_BYTES / 3),
    };
    await writer.put("wordy", "k2", { tools: [wordy] });
    const cache = new MetadataCache({ file });
    await cache.load();
    const listing = cache.get("small", "k1")!;
    expect(listing.tools).toHaveLength(3);
    expect(cache.get("small", "k1")?.tools).toHaveLength(3);
    expect(cache.get("wordy", "k2")?.tools).toHaveLength(1);
    listing.tools = [{ ...tools(1)[0]!, description: "x".repeat(MAX_LISTING_BYTES + 1) }];
    expect(cache.get("small", "k1")).toBeUndefined();
  });

  it("measures a listing read from the cache file again once it was changed after the read", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "catalog-limits-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, "mcp-cache.json");
    await new MetadataCache({ file }).put("small", "k1", { tools: tools(3) });
    const cache = new MetadataCache({ file });
    await cache.load();
    const listing = cache.get("small", "k1")!;
    expect(buildServerMetadata("small", listing).map((t) => t.name)).toEqual(["tool_0", "tool_1", "tool_2"]);
    listing.tools = [{ ...tools(1)[0]!, description: "x".repeat(MAX_LISTING_BYTES + 1) }];
    expect(() => buildServerMetadata("small", listing)).toThrow(/"small" listed more than 4 MiB/);
  });
});
