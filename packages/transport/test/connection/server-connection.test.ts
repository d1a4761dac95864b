import { connectInMemory, createTempDir, recordedPids, waitForExit } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection, TransportError } from "../../src/index.js";
import { definition, failure, faultStdio, fixtureStdio } from "../helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("stdio connections", () => {
  it("lists every page of tools and calls one", async () => {
    open = await connectServer(fixtureStdio("fixture", { FIXTURE_PAGE_SIZE: "1" }));
    const tools = await open.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "add", "get_weather", "whoami"]);
    const result = await open.callTool("add", { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);
    expect(open.serverVersion?.name).toBe("fixture-stdio");
    expect(open.instructions).toContain("fixture");
  });

  it("ends the server process on close", async () => {
    await using dir = await createTempDir();
    open = await connectServer(fixtureStdio("fixture", { FIXTURE_PID_DIR: dir.path }));
    const [pid] = await recordedPids(dir.path);
    expect(pid).toBe(open.pid);
    await open.close();
    expect(await waitForExit([pid!])).toEqual([]);
    expect(open.closed).toBe(true);
  });

  it("names a missing command clearly", async () => {
    const error = await failure(
      connectServer(definition({ name: "ghost", transport: "stdio", command: "no-such-command-xyz" })),
    );
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/"ghost".*no-such-command-xyz/);
  });

  it("times out a request, tells the server, and stays usable", async () => {
    open = await connectServer(faultStdio("slow", ""));
    const error = await failure(open.callTool("sleep", { ms: 5000 }, { timeoutMs: 200 }));
    expect((error as TransportError).code).toBe("request_timeout");
    expect((error as Error).message).toContain("slow: tools/call sleep timed out after 200 ms");
    await expect.poll(() => open!.stderrTail().join("\n")).toContain("cancelled sleep");
    expect((await open.callTool("echo", { text: "still here" })).content).toEqual([
      { type: "text", text: "still here" },
    ]);
  });

  it("cancels a request when the caller aborts, and tells the server", async () => {
    open = await connectServer(faultStdio("slow", ""));
    const controller = new AbortController();
    const call = open.callTool("sleep", { ms: 5000 }, { signal: controller.signal });
    // Abort once the server is running the call, so the cancellation must reach it.
    await expect.poll(() => open!.stderrTail().join("\n")).toContain("sleeping");
    controller.abort();
    const error = await failure(call);
    expect((error as TransportError).code).toBe("request_cancelled");
    await expect.poll(() => open!.stderrTail().join("\n")).toContain("cancelled sleep");
  });

  it("tracks requests in flight", async () => {
    open = await connectServer(faultStdio("slow", ""));
    const call = open.callTool("sleep", { ms: 300 });
    expect(open.activeRequests).toBe(1);
    await call;
    expect(open.activeRequests).toBe(0);
  });
});

describe("output schema", () => {
  async function typedConnection(outputSchema: Record<string, unknown>, structured: Record<string, unknown>) {
    const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
    const { CallToolRequestSchema, ListToolsRequestSchema } = await import(
      "@modelcontextprotocol/sdk/types.js"
    );
    const server = new Server({ name: "typed", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "weather", inputSchema: { type: "object" }, outputSchema: outputSchema as never }],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: "text", text: JSON.stringify(structured) }],
      structuredContent: structured,
    }));
    return connectServer(definition({ name: "typed", transport: "stdio", command: "unused" }), {
      transport: await connectInMemory(server),
    });
  }

  const draft07 = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { temp: { type: "number" } },
    required: ["temp"],
  };
  const draft2020 = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    prefixItems: [],
    properties: { temp: { type: "number" }, tags: { type: "array", prefixItems: [{ type: "string" }] } },
    required: ["temp"],
  };

  for (const [label, schema] of [
    ["draft-07", draft07],
    ["2020-12", draft2020],
  ] as const) {
    it(`accepts matching structuredContent (${label})`, async () => {
      open = await typedConnection(schema, { temp: 21, tags: ["sunny"] });
      await open.listTools();
      const result = await open.callTool("weather", {});
      expect(result.structuredContent).toEqual({ temp: 21, tags: ["sunny"] });
    });

    it(`rejects structuredContent that breaks the schema (${label})`, async () => {
      open = await typedConnection(schema, { temp: "warm", tags: [1] });
      await open.listTools();
      const error = await failure(open.callTool("weather", {}));
      expect((error as TransportError).code).toBe("invalid_result");
      expect((error as Error).message).toMatch(/typed: tools\/call weather .*temp/);
    });
  }

  it("uses a schema passed by the caller when this connection has not listed tools", async () => {
    open = await typedConnection(draft07, { temp: "warm" });
    const error = await failure(open.callTool("weather", {}, { outputSchema: draft07 }));
    expect((error as TransportError).code).toBe("invalid_result");
  });
});
