import { serverEverythingPath, startServerEverything } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection } from "../src/index.js";
import { definition } from "./helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function exercise(connection: ServerConnection) {
  const tools = await connection.listTools();
  expect(tools.map((t) => t.name)).toContain("echo");
  const result = await connection.callTool("echo", { message: "hello" });
  expect(JSON.stringify(result.content)).toContain("hello");
  const resources = await connection.listResources();
  expect(resources.length).toBeGreaterThan(0);
  expect(new Set(resources.map((r) => r.uri)).size).toBe(resources.length);
  const templates = await connection.listResourceTemplates();
  expect(templates.length).toBeGreaterThan(0);
  const prompts = await connection.listPrompts();
  expect(prompts.length).toBeGreaterThan(0);
  const prompt = await connection.getPrompt(prompts[0]!.name, {});
  expect(prompt.messages.length).toBeGreaterThan(0);
  await connection.ping();
}

const stdioEverything = (extra: Partial<Parameters<typeof definition>[0]> = {}) =>
  definition({
    name: "everything",
    transport: "stdio",
    command: process.execPath,
    args: [serverEverythingPath],
    ...extra,
  });

describe("server-everything", () => {
  it("works over stdio", async () => {
    open = await connectServer(stdioEverything());
    expect(open.via).toBe("stdio");
    expect(open.pid).toBeGreaterThan(0);
    await exercise(open);
  });

  it("works over Streamable HTTP", async () => {
    await using server = await startServerEverything("streamableHttp");
    open = await connectServer(
      definition({ name: "everything", transport: "http", url: `${server.base}/mcp` }),
    );
    expect(open.via).toBe("streamable-http");
    await exercise(open);
  });

  it("works over legacy SSE when asked for it", async () => {
    await using server = await startServerEverything("sse");
    open = await connectServer(
      definition({ name: "everything", transport: "sse", url: `${server.base}/sse` }),
    );
    expect(open.via).toBe("sse");
    await exercise(open);
  });

  it("falls back from Streamable HTTP to SSE when the endpoint rejects POST", async () => {
    await using server = await startServerEverything("sse");
    open = await connectServer(
      definition({ name: "everything", transport: "http", url: `${server.base}/sse` }),
    );
    expect(open.via).toBe("sse");
    await exercise(open);
  });

  it("protocol auto falls back to the classic handshake over stdio and Streamable HTTP", async () => {
    open = await connectServer(stdioEverything({ protocol: "auto" }));
    expect(open.protocolVersion).toMatch(/^2025-/);
    await exercise(open);
    await open.close();

    await using server = await startServerEverything("streamableHttp");
    open = await connectServer(
      definition({ name: "everything", transport: "http", url: `${server.base}/mcp`, protocol: "auto" }),
    );
    expect(open.via).toBe("streamable-http");
    expect(open.protocolVersion).toMatch(/^2025-/);
    await exercise(open);
  });

  it("a pinned 2026-07-28 refuses it with a message naming the server", async () => {
    await using server = await startServerEverything("streamableHttp");
    await expect(
      connectServer(
        definition({
          name: "everything",
          transport: "http",
          url: `${server.base}/mcp`,
          protocol: "2026-07-28",
        }),
      ),
    ).rejects.toThrow(/"everything".*2026-07-28/);
  });
});
