import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ServerEverythingHttp, startServerEverything } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionManager, connectServer, type ServerStatus } from "../../src/index.js";
import { isSessionLost } from "../../src/protocol/session-renewal.js";
import { definition } from "../helpers.js";

let server: ServerEverythingHttp | undefined;
let manager: ConnectionManager | undefined;
afterEach(async () => {
  await manager?.shutdown();
  await server?.close();
  manager = undefined;
  server = undefined;
});

/** server-everything stopped and started again on the same port: same URL, no sessions. */
async function restart(running: ServerEverythingHttp): Promise<ServerEverythingHttp> {
  await running.close();
  return startServerEverything("streamableHttp", { port: running.port });
}

const echoText = (result: { content: unknown }) => JSON.stringify(result.content);

describe("a Streamable HTTP server that restarts mid-session", () => {
  for (const protocol of ["legacy", "auto"] as const) {
    it(`opens a new session once and retries the requests that hit the lost one (protocol ${protocol})`, async () => {
      server = await startServerEverything("streamableHttp");
      const everything = definition({ name: "everything", transport: "http", url: server.url, protocol });
      manager = new ConnectionManager([everything], {
        connect: (d, signal) => connectServer(d, {}, signal),
      });
      const statuses: ServerStatus["state"][] = [];
      const renewed: string[] = [];
      manager.on("status", (s) => statuses.push(s.state));
      manager.on("session-renewed", (name) => renewed.push(name));
      const connection = await manager.get("everything");
      expect(echoText(await connection.callTool("echo", { message: "before" }))).toContain("before");

      server = await restart(server);
      statuses.length = 0;
      // Three requests at once hit the lost session; one new session serves them all.
      const [call, tools] = await Promise.all([
        connection.callTool("echo", { message: "after" }),
        connection.listTools(),
        connection.ping(),
      ]);
      expect(echoText(call)).toContain("after");
      expect(tools.map((t) => t.name)).toContain("echo");
      expect(renewed).toEqual(["everything"]);
      expect(statuses).toEqual(["connecting", "connected"]);
      expect(manager.status()[0]?.state).toBe("connected");
      // The same connection object keeps working: later calls need no renewal.
      expect(await manager.get("everything")).toBe(connection);
      expect(echoText(await connection.callTool("echo", { message: "later" }))).toContain("later");
      expect(renewed).toHaveLength(1);
    });
  }

  it("closes the connection with a clear error when the server does not come back", async () => {
    server = await startServerEverything("streamableHttp");
    const everything = definition({ name: "everything", transport: "http", url: server.url });
    manager = new ConnectionManager([everything], { connect: (d, signal) => connectServer(d, {}, signal) });
    const connection = await manager.get("everything");
    // Another process now answers on that port: it knows no session and cannot initialize one.
    await server.close();
    server = await startServerEverything("sse", { port: server.port });
    await expect(connection.callTool("echo", { message: "x" })).rejects.toThrow(
      /^everything: the server no longer knows this session \(HTTP 404; it may have restarted\) and a new session could not be opened: .*Cannot POST \/mcp/s,
    );
    expect(connection.closed).toBe(true);
    expect(manager.status()[0]).toMatchObject({
      state: "failed",
      error: expect.stringContaining("connection lost"),
    });
  });
});

describe("isSessionLost", () => {
  it("reads 404, and 400 that names an unknown or uninitialized session, as a lost session", () => {
    expect(isSessionLost(new StreamableHTTPError(404, "Error POSTing to endpoint: Session not found"))).toBe(
      true,
    );
    const everything =
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}';
    expect(isSessionLost(new StreamableHTTPError(400, `Error POSTing to endpoint: ${everything}`))).toBe(
      true,
    );
    expect(
      isSessionLost(
        new StreamableHTTPError(400, "Error POSTing to endpoint: Bad Request: Server not initialized"),
      ),
    ).toBe(true);
    expect(isSessionLost(new StreamableHTTPError(400, "Error POSTing to endpoint: invalid params"))).toBe(
      false,
    );
    expect(isSessionLost(new StreamableHTTPError(500, "Error POSTing to endpoint: session store down"))).toBe(
      false,
    );
  });
});
