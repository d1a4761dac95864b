import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer } from "../../src/index.js";
import { definition, failure } from "../helpers.js";

/** A tiny stand-in for rmcp-mux: each client socket is piped to a fresh stdio server. */
async function serveMux(path: string): Promise<Server> {
  const server = createServer((socket) => {
    const child = spawn(process.execPath, [stdioFixtureServerPath], { stdio: ["pipe", "pipe", "ignore"] });
    socket.pipe(child.stdin);
    child.stdout.pipe(socket);
    socket.on("close", () => child.kill());
    socket.on("error", () => child.kill());
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return server;
}

let mux: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (mux ? mux.close(resolve) : resolve(undefined)));
  mux = undefined;
});

describe("Unix socket transport", () => {
  it("speaks MCP over a mux socket", async () => {
    await using dir = await createTempDir();
    mux = await serveMux(dir.join("mux.sock"));
    const connection = await connectServer(
      definition({ name: "muxed", transport: "socket", socket: dir.join("mux.sock") }),
    );
    expect(connection.via).toBe("socket");
    expect((await connection.callTool("echo", { text: "via socket" })).content).toEqual([
      { type: "text", text: "via socket" },
    ]);
    await connection.close();
    expect(connection.closed).toBe(true);
  });

  it("says clearly when no socket exists", async () => {
    await using dir = await createTempDir();
    const error = await failure(
      connectServer(definition({ name: "muxed", transport: "socket", socket: dir.join("missing.sock") })),
    );
    expect(error.code).toBe("connect_failed");
    expect(error.message).toContain("no such socket");
  });
});
