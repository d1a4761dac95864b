import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { serveStreamableHttp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { connectServer } from "../../src/index.js";
import { definition } from "../helpers.js";

const own = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** A server that remembers who introduced itself. */
function recordingServer(seen: Array<{ name: string; version: string } | undefined>): () => Server {
  return () => {
    const server = new Server({ name: "who", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.oninitialized = () => seen.push(server.getClientVersion());
    return server;
  };
}

describe("client identity", () => {
  it("a caller that names no client introduces itself as this package at its own version", async () => {
    const seen: Array<{ name: string; version: string } | undefined> = [];
    await using http = await serveStreamableHttp(recordingServer(seen));
    const connection = await connectServer(definition({ name: "who", transport: "http", url: http.url }));
    await connection.close();
    expect(seen[0]).toMatchObject({ name: "@pi-mcp-adapter/transport", version: own.version });
  });

  it("a caller's own identity is sent as given", async () => {
    const seen: Array<{ name: string; version: string } | undefined> = [];
    await using http = await serveStreamableHttp(recordingServer(seen));
    const connection = await connectServer(definition({ name: "who", transport: "http", url: http.url }), {
      client: { name: "host", version: "9.9.9" },
    });
    await connection.close();
    expect(seen[0]).toMatchObject({ name: "host", version: "9.9.9" });
  });
});
