import { StreamableHTTPClientTransport as V2StreamableHttp } from "@modelcontextprotocol/client";
import {
  connectInMemory,
  createFixtureServer,
  createTempDir,
  recordedPids,
  serveStreamableHttp,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type EraCache, type ServerConnection } from "../src/index.js";
import { definition, failure, fixtureStdio, startV2Http, v2ServerPath } from "./helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("protocol negotiation over HTTP", () => {
  it("auto speaks 2026-07-28 to an SDK v2 server", async () => {
    await using server = await startV2Http();
    open = await connectServer(
      definition({ name: "modern", transport: "http", url: server.url, protocol: "auto" }),
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    expect((await open.listTools()).map((t) => t.name)).toEqual(["echo", "notify", "ask"]);
    expect((await open.callTool("echo", { text: "new era" })).content).toEqual([
      { type: "text", text: "new era" },
    ]);
  });

  it("a pinned 2026-07-28 connects to a strict 2026-only server, which legacy cannot", async () => {
    await using server = await startV2Http(true);
    open = await connectServer(
      definition({ name: "strict", transport: "http", url: server.url, protocol: "2026-07-28" }),
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    expect((await open.callTool("echo", { text: "pinned" })).content).toEqual([
      { type: "text", text: "pinned" },
    ]);
    const legacy = await failure(
      connectServer(definition({ name: "strict", transport: "http", url: server.url })),
    );
    expect(legacy.code).toBe("connect_failed");
  });

  it("auto falls back to the classic handshake with an SDK v1 server; pinned refuses it", async () => {
    await using server = await serveStreamableHttp(() =>
      createFixtureServer({ tools: [{ name: "ping_me", description: "v1 tool" }] }),
    );
    open = await connectServer(
      definition({ name: "v1", transport: "http", url: server.url, protocol: "auto" }),
    );
    expect(open.protocolVersion).not.toBe("2026-07-28");
    expect((await open.listTools()).map((t) => t.name)).toEqual(["ping_me"]);
    const pinned = await failure(
      connectServer(definition({ name: "v1", transport: "http", url: server.url, protocol: "2026-07-28" })),
    );
    expect(pinned.code).toBe("connect_failed");
    expect(pinned.message).toContain('"v1"');
  });

  it("legacy (the default) talks classic MCP to an SDK v2 server", async () => {
    await using server = await startV2Http();
    open = await connectServer(definition({ name: "modern", transport: "http", url: server.url }));
    expect(open.protocolVersion).not.toBe("2026-07-28");
    expect((await open.callTool("echo", { text: "classic" })).content).toEqual([
      { type: "text", text: "classic" },
    ]);
  });
});

describe("protocol negotiation over stdio", () => {
  it("auto probes on a short-lived sibling, falls back for a legacy server, and remembers the verdict", async () => {
    await using dir = await createTempDir();
    const eraCache: EraCache = new Map();
    const server = { ...fixtureStdio("v1", { FIXTURE_PID_DIR: dir.path }), protocol: "auto" as const };
    open = await connectServer(server, { eraCache });
    expect(open.protocolVersion).not.toBe("2026-07-28");
    expect((await open.callTool("add", { a: 1, b: 1 })).content).toEqual([{ type: "text", text: "2" }]);
    const first = await recordedPids(dir.path);
    expect(first).toHaveLength(2); // the probe sibling and the session
    expect(await waitForExit(first.filter((pid) => pid !== open!.pid))).toEqual([]);
    await open.close();
    open = await connectServer(server, { eraCache });
    expect(await recordedPids(dir.path)).toHaveLength(3); // no second probe
  });

  it("auto works with an SDK v2 server on stdio", async () => {
    open = await connectServer(
      definition({
        name: "v2",
        transport: "stdio",
        command: process.execPath,
        args: [v2ServerPath],
        protocol: "auto",
      }),
      { eraCache: new Map() },
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    expect((await open.callTool("echo", { text: "stdio" })).content).toEqual([
      { type: "text", text: "stdio" },
    ]);
  });

  it("a 2026-07-28 tool result without resultType is taken as complete, not rejected", async () => {
    open = await connectServer(
      definition({
        name: "draft",
        transport: "stdio",
        command: process.execPath,
        args: [v2ServerPath],
        env: { V2_OMIT_RESULT_TYPE: "1" },
        protocol: "2026-07-28",
      }),
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    const result = await open.callTool("echo", { text: "no resultType" });
    expect(result.content).toEqual([{ type: "text", text: "no resultType" }]);
    expect(result.isError).not.toBe(true);
  });

  it("a pinned 2026-07-28 fails clearly against a legacy stdio server", async () => {
    const error = await failure(connectServer({ ...fixtureStdio("old"), protocol: "2026-07-28" }));
    expect(error.code).toBe("connect_failed");
    expect(error.message).toMatch(/"old".*does not offer 2026-07-28/);
  });
});

describe("protocol negotiation over an injected transport", () => {
  it("a pinned 2026-07-28 is honoured, not silently replaced by the classic handshake", async () => {
    await using server = await startV2Http(true);
    const transport = new V2StreamableHttp(new URL(server.url));
    open = await connectServer(definition({ name: "injected", transport: "http", protocol: "2026-07-28" }), {
      transport: transport as never,
    });
    expect(open.protocolVersion).toBe("2026-07-28");
    expect(open.via).toBe("custom");
    expect((await open.callTool("echo", { text: "injected" })).content).toEqual([
      { type: "text", text: "injected" },
    ]);
  });

  it("auto falls back in place for a 2025 server; legacy stays the classic handshake", async () => {
    const fixture = () => createFixtureServer({ tools: [{ name: "ping_me", description: "v1 tool" }] });
    open = await connectServer(definition({ name: "auto", transport: "stdio", protocol: "auto" }), {
      transport: await connectInMemory(fixture()),
    });
    expect(open.protocolVersion).not.toBe("2026-07-28");
    expect((await open.listTools()).map((t) => t.name)).toEqual(["ping_me"]);
    await open.close();
    open = await connectServer(definition({ name: "legacy", transport: "stdio" }), {
      transport: await connectInMemory(fixture()),
    });
    expect(open.protocolVersion).not.toBe("2026-07-28");
  });
});
