import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { connectInMemory } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { connectServer } from "../../src/index.js";
import { definition } from "../helpers.js";

/** One item per page, cursors are indexes; `loop` makes the server repeat its first cursor forever. */
function page<T>(items: T[], cursor: string | undefined, loop = false) {
  const start = cursor ? Number(cursor) : 0;
  const next = loop ? "1" : start + 1 < items.length ? String(start + 1) : undefined;
  return { items: items.slice(start, start + 1), nextCursor: next };
}

function pagedServer(loop = false) {
  const server = new Server(
    { name: "paged", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  const names = ["a", "b", "c"];
  server.setRequestHandler(ListToolsRequestSchema, (r) => {
    const p = page(names, r.params?.cursor, loop);
    return {
      tools: p.items.map((name) => ({ name, inputSchema: { type: "object" as const } })),
      nextCursor: p.nextCursor,
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, (r) => {
    const p = page(names, r.params?.cursor);
    return { resources: p.items.map((name) => ({ uri: `mem://${name}`, name })), nextCursor: p.nextCursor };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (r) => {
    const p = page(names, r.params?.cursor);
    return {
      resourceTemplates: p.items.map((name) => ({ uriTemplate: `mem://${name}/{id}`, name })),
      nextCursor: p.nextCursor,
    };
  });
  server.setRequestHandler(ListPromptsRequestSchema, (r) => {
    const p = page(names, r.params?.cursor);
    return { prompts: p.items.map((name) => ({ name })), nextCursor: p.nextCursor };
  });
  return server;
}

const def = definition({ name: "paged", transport: "stdio", command: "unused" });

describe("pagination", () => {
  it("follows cursors for tools, resources, resource templates and prompts", async () => {
    const connection = await connectServer(def, { transport: await connectInMemory(pagedServer()) });
    expect((await connection.listTools()).map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect((await connection.listResources()).map((r) => r.uri)).toEqual(["mem://a", "mem://b", "mem://c"]);
    expect((await connection.listResourceTemplates()).map((r) => r.name)).toEqual(["a", "b", "c"]);
    expect((await connection.listPrompts()).map((p) => p.name)).toEqual(["a", "b", "c"]);
    await connection.close();
  });

  it("stops when a server repeats a cursor instead of looping forever", async () => {
    const connection = await connectServer(def, { transport: await connectInMemory(pagedServer(true)) });
    expect((await connection.listTools()).map((t) => t.name)).toEqual(["a", "b"]);
    await connection.close();
  });
});
