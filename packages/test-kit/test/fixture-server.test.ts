import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { connectInMemory, createFixtureServer, serveStreamableHttp } from "../src/index.js";

const tools = [
  { name: "one", description: "first" },
  { name: "two", handler: () => ({ content: [{ type: "text" as const, text: "called two" }] }) },
  { name: "three" },
];

describe("fixture servers", () => {
  it("page tools/list with cursors in memory", async () => {
    const client = new Client({ name: "t", version: "1" });
    await client.connect(await connectInMemory(createFixtureServer({ tools, pageSize: 2 })));
    const page = await client.listTools();
    expect(page.tools.map((t) => t.name)).toEqual(["one", "two"]);
    expect(page.nextCursor).toBe("2");
    const rest = await client.listTools({ cursor: page.nextCursor });
    expect(rest.tools.map((t) => t.name)).toEqual(["three"]);
    await client.close();
  });

  it("serve Streamable HTTP on 127.0.0.1", async () => {
    await using http = await serveStreamableHttp(() => createFixtureServer({ tools }));
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const result = await client.callTool({ name: "two", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "called two" }]);
    await client.close();
  });
});
