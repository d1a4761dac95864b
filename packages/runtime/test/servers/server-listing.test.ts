import { describe, expect, it } from "vitest";
import { listServer } from "../../src/catalog/server-listing.js";
import type { ListingSource } from "../../src/catalog/tool-catalog.js";

const features = {
  tools: true,
  prompts: true,
  resources: true,
  resourceSubscribe: false,
  completions: false,
  skills: false,
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

/** An error as the transport gives it: its own message, the SDK's JSON-RPC error as the cause. */
const rpcError = (code: number, message: string) =>
  Object.assign(new Error(`srv: list failed: MCP error ${code}: ${message}`), {
    cause: Object.assign(new Error(message), { code }),
  });

describe("listServer", () => {
  it("lists what the server declared", async () => {
    expect(await listServer(source())).toEqual({
      tools: [{ name: "t", inputSchema: { type: "object" } }],
      resources: [{ uri: "mem://r", name: "r" }],
      prompts: [{ name: "p" }],
    });
    const toolsOnly = await listServer(
      source({ features: { ...features, prompts: false, resources: false } }),
    );
    expect(toolsOnly).toEqual({ tools: [{ name: "t", inputSchema: { type: "object" } }] });
  });

  it("keeps the tools when a declared list is not implemented (-32601), noting it as unsupported", async () => {
    const listing = await listServer(
      source({
        listResources: async () => Promise.reject(rpcError(-32601, "Method not found")),
        listResourceTemplates: async () => Promise.reject(rpcError(-32601, "Method not found")),
      }),
    );
    expect(listing.tools).toHaveLength(1);
    expect(listing.resources).toBeUndefined();
    expect(listing.prompts).toEqual([{ name: "p" }]);
    expect(listing.skipped).toEqual([
      {
        list: "resources/list",
        reason: "unsupported",
        error: "srv: list failed: MCP error -32601: Method not found",
      },
      {
        list: "resources/templates/list",
        reason: "unsupported",
        error: "srv: list failed: MCP error -32601: Method not found",
      },
    ]);
  });

  it("keeps the tools when a declared list fails another way, noting it as failed", async () => {
    const listing = await listServer(
      source({ listPrompts: async () => Promise.reject(new Error("timed out")) }),
    );
    expect(listing.tools).toHaveLength(1);
    expect(listing.prompts).toBeUndefined();
    expect(listing.skipped).toEqual([{ list: "prompts/list", reason: "failed", error: "timed out" }]);
  });

  it("fails as a whole when the connection closed while listing", async () => {
    const closing = source({ closed: true, listPrompts: async () => Promise.reject(new Error("closed")) });
    await expect(listServer(closing)).rejects.toThrow("the connection closed while listing");
  });
});
