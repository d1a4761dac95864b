/**
 * Legacy SSE binds a session to its event stream: published server-everything
 * in `sse` mode, stopped (and started again on the same port) while a session
 * is open. The stream's end fails the call in flight at once (not at its
 * 10-minute timeout), the next use opens a new session, and a server stopped
 * for good shows as failed at once; the next use says "connection refused".
 */
import { type ServerEverythingHttp, startServerEverything } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionManager, connectServer } from "../../src/index.js";
import { definition, failure } from "../helpers.js";

let server: ServerEverythingHttp | undefined;
let manager: ConnectionManager | undefined;
afterEach(async () => {
  await manager?.shutdown();
  await server?.close();
  manager = undefined;
  server = undefined;
});

const echoText = (result: { content: unknown }) => JSON.stringify(result.content);

function sseManager(url: string): ConnectionManager {
  // Anything that waited for a request's timeout would outlast the test.
  const everything = definition({ name: "everything", transport: "sse", url, requestTimeoutMs: 600_000 });
  return new ConnectionManager([everything], { connect: (d, signal) => connectServer(d, {}, signal) });
}

describe("a legacy SSE server whose stream ends", () => {
  it("fails the call in flight at once when it restarts, and the next call opens a new session", async () => {
    server = await startServerEverything("sse");
    manager = sseManager(server.url);
    const connection = await manager.get("everything");
    expect(echoText(await connection.callTool("echo", { message: "before" }))).toContain("before");

    const long = failure(
      connection.callTool("trigger-long-running-operation", { duration: 300, steps: 300 }),
    );
    await server.close();
    server = await startServerEverything("sse", { port: server.port });
    expect((await long).message).toContain("may or may not have run");
    await expect.poll(() => manager!.status()[0]?.state).toBe("failed");

    const next = await manager.get("everything");
    expect(next).not.toBe(connection);
    expect(echoText(await next.callTool("echo", { message: "after" }))).toContain("after");
    expect(manager.status()[0]).toEqual({
      name: "everything",
      state: "connected",
      connectMs: expect.any(Number),
    });
  });

  it("serves the first call after a restart from a new session, without waiting for a timeout", async () => {
    server = await startServerEverything("sse");
    manager = sseManager(server.url);
    const connection = await manager.get("everything");
    await server.close();
    server = await startServerEverything("sse", { port: server.port });

    const next = await manager.get("everything");
    expect(echoText(await next.callTool("echo", { message: "after" }))).toContain("after");
    expect(next).not.toBe(connection);
  });

  it("shows a server stopped for good as failed, and the next use says the connection was refused", async () => {
    server = await startServerEverything("sse");
    manager = sseManager(server.url);
    await manager.get("everything");
    await server.close();
    server = undefined;

    await expect
      .poll(() => manager!.status()[0])
      .toMatchObject({ state: "failed", error: "connection lost" });
    const refused = await failure(manager.get("everything"));
    expect(refused.message).toContain("connection refused — is the server running on that port?");
  });
});
