import { createTempDir, recordedPids, serveHttpFault, waitForExit } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection } from "../../src/index.js";
import { definition, failure, faultStdio } from "../helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe("stdio faults", () => {
  it("a server that exits during initialize fails with its stderr in the message", async () => {
    const error = await failure(connectServer(faultStdio("dies", "exit-on-initialize")));
    expect(error.code).toBe("connect_failed");
    expect(error.message).toContain('"dies"');
    expect(error.message).toContain("fatal: cannot open database");
  });

  it("a server that crashes at start as Node does is reported by its error line, not its trailer", async () => {
    const error = await failure(connectServer(faultStdio("keyring", "node-crash")));
    expect(error.code).toBe("connect_failed");
    const stderr = error.message.split(" — server stderr: ")[1] ?? "";
    expect(stderr).toMatch(
      /^Error: Cannot find module '\.\.\/build\/Release\/keytar\.node' \| Require stack: - \S+fault-server\.mjs/,
    );
    expect(stderr).toContain("code: 'MODULE_NOT_FOUND'");
    expect(stderr).not.toMatch(/Node\.js v|\bat Module\./);
  });

  it("a server that logs a lot and then exits with a plain message is reported by that message", async () => {
    const error = await failure(connectServer(faultStdio("noisy", "noisy-exit")));
    expect(error.message).toMatch(
      / — server stderr: Missing FIXTURE_API_KEY: set it in the server's env to start$/,
    );
  });

  it("a server that never answers initialize fails after the request timeout and is killed", async () => {
    await using dir = await createTempDir();
    const silent = {
      ...faultStdio("silent", "never-initialize", { FIXTURE_PID_DIR: dir.path }),
      requestTimeoutMs: 300,
    };
    const started = Date.now();
    const error = await failure(connectServer(silent));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.code).toBe("connect_failed");
    expect(error.message).toMatch(/silent.*timed out/i);
    expect(await waitForExit(await recordedPids(dir.path))).toEqual([]);
  });

  it("a server that crashes mid-call ends that call with a closed error", async () => {
    open = await connectServer(faultStdio("crashy", ""));
    const error = await failure(open.callTool("crash", {}));
    expect(error.code).toBe("closed");
    expect(error.message).toContain("panic: crashed mid-call");
    expect(open.closed).toBe(true);
  });

  it("a Node server that throws mid-call ends that call with the exception's line", async () => {
    open = await connectServer(faultStdio("buggy", ""));
    const error = await failure(open.callTool("crash", { node: true }));
    expect(error.code).toBe("closed");
    expect(error.message).toMatch(
      / — server stderr: TypeError: Cannot read properties of undefined \(reading 'token'\)$/,
    );
  });

  it("a server that prints garbage on stdout still works", async () => {
    open = await connectServer(faultStdio("noisy", "garbage-stdout"));
    expect((await open.listTools()).length).toBe(4);
    expect((await open.callTool("echo", { text: "ok" })).content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("a server that floods stderr keeps working and its log stays bounded", async () => {
    open = await connectServer(faultStdio("loud", "flood-stderr"));
    expect((await open.callTool("echo", { text: "ok" })).content).toEqual([{ type: "text", text: "ok" }]);
    await expect.poll(() => open!.stderrTail(1)).toEqual(["last stderr line"]);
    expect(open.stderrTail(10_000).join("\n").length).toBeLessThanOrEqual(16 * 1024);
  });
});

describe("HTTP faults", () => {
  it("an HTML page gets a hint that the URL does not speak MCP, without trying SSE", async () => {
    await using server = await serveHttpFault("html");
    const error = await failure(
      connectServer(definition({ name: "web", transport: "http", url: server.url })),
    );
    expect(error.message).toContain("endpoint returned HTML (200) — this URL does not appear to speak MCP");
  });

  it("a 500 is reported as a server error and never falls back to SSE", async () => {
    await using server = await serveHttpFault("status-500");
    const error = await failure(
      connectServer(definition({ name: "broken", transport: "http", url: server.url })),
    );
    expect(error.code).toBe("connect_failed");
    expect(error.message).toContain("server error 500");
    expect(server.requests.filter((r) => r.method === "GET")).toEqual([]);
  });

  it("a 401 means needs-auth and never falls back to SSE", async () => {
    await using server = await serveHttpFault("status-401");
    const error = await failure(
      connectServer(definition({ name: "locked", transport: "http", url: server.url })),
    );
    expect(error.code).toBe("needs_auth");
    expect(server.requests.filter((r) => r.method === "GET")).toEqual([]);
  });

  it("a 404 tries legacy SSE once, then says the path may be wrong", async () => {
    await using server = await serveHttpFault("status-404");
    const error = await failure(
      connectServer(definition({ name: "lost", transport: "http", url: server.url })),
    );
    expect(error.message).toContain("404 — wrong path?");
    expect(server.requests.some((r) => r.method === "GET" && r.accept.includes("text/event-stream"))).toBe(
      true,
    );
  });

  it("a refused connection says so", async () => {
    const server = await serveHttpFault("status-404");
    const url = server.url;
    await server.close();
    const error = await failure(connectServer(definition({ name: "down", transport: "http", url })));
    expect(error.message).toContain("connection refused");
  });

  it("an SSE answer cut mid-event ends the call at once with a clear error, and the connection stays usable", async () => {
    await using server = await serveHttpFault("sse-drop");
    open = await connectServer(definition({ name: "cut", transport: "http", url: server.url }));
    const started = Date.now();
    const error = await failure(open.callTool("drop", {}));
    expect(error.message).toMatch(
      /^cut: tools\/call drop failed: .*ended the response stream before answering/,
    );
    expect(Date.now() - started).toBeLessThan(5000); // the request timeout is 30 s
    await open.ping();
  });
});
