import { describe, expect, it } from "vitest";
import { listServer } from "../src/catalog/server-listing.js";
import type { ListingSource } from "../src/catalog/tool-catalog.js";

const features = {
  tools: true,
  prompts: true,
  resources: true,
  resourceSubscribe: false,
  completions: false,
};
const source = (extra: Partial<ListingSource> = {}): ListingSource => ({
  instructions: undefined,
  features,
  listTools: async () => [{ name: "t", inputSchema: { type: "object" } }],
  listResources: async () => [{ uri: "mem://r", name: "r" }],
  listResourceTemplates: async () => [],
  listPrompts: async () => [{ name: "p" }],
  ...extra,
});

describe("listServer", () => {
  it("lists what the server declared", async () => {
    expect(await listServer(source())).toEqual({
      listing: {
        tools: [{ name: "t", inputSchema: { type: "object" } }],
        resources: [{ uri: "mem://r", name: "r" }],
        prompts: [{ name: "p" }],
      },
      partial: false,
    });
    const toolsOnly = await listServer(
      source({ features: { ...features, prompts: false, resources: false } }),
    );
    expect(toolsOnly.listing).toEqual({ tools: [{ name: "t", inputSchema: { type: "object" } }] });
  });

  it("keeps the tools when prompts fail, but marks the listing partial (not to be cached)", async () => {
    const failing = source({ listPrompts: async () => Promise.reject(new Error("boom")) });
    const listed = await listServer(failing);
    expect(listed.partial).toBe(true);
    expect(listed.listing.tools).toHaveLength(1);
    expect(listed.listing.prompts).toBeUndefined();
  });

  it("fails as a whole when the connection closed while listing", async () => {
    const closing = source({ closed: true, listPrompts: async () => Promise.reject(new Error("closed")) });
    await expect(listServer(closing)).rejects.toThrow("the connection closed while listing");
  });
});
