import { readFile } from "node:fs/promises";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { daemonPaths } from "../src/index.js";
import {
  agentDirPerTest,
  daemonStatus,
  everythingSpec,
  firstText,
  isRunning,
  openSession,
} from "./daemon-fixtures.js";

const agent = agentDirPerTest();

describe("two sessions, one server-everything", () => {
  it("run one server process; each session gets its own initialize and its own results", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    expect(a.channel.attachment?.reused).toBe(false);
    expect(b.channel.attachment?.reused).toBe(true);
    expect(b.channel.attachment?.pid).toBe(a.channel.attachment?.pid);
    expect(isRunning(a.channel.attachment?.pid ?? 0)).toBe(true);
    expect(a.client.getServerVersion()?.name).toBe(b.client.getServerVersion()?.name);
    await expect.poll(() => a.channel.sessions()).toBe(2);

    const status = await daemonStatus(agent.path);
    expect(status?.servers).toHaveLength(1);
    expect(status?.servers[0]).toMatchObject({
      name: "everything",
      sessions: 2,
      pid: a.channel.attachment?.pid,
    });

    const [ra, rb] = await Promise.all([
      a.client.callTool({ name: "echo", arguments: { message: "from alpha" } }),
      b.client.callTool({ name: "echo", arguments: { message: "from beta" } }),
    ]);
    expect(firstText(ra)).toBe("Echo: from alpha");
    expect(firstText(rb)).toBe("Echo: from beta");
    await a.client.close();
    await b.client.close();
  });

  it("name every config entry that shares the process in the status", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta", { serverName: "everything-too" });
    expect(b.channel.attachment?.reused).toBe(true);
    const status = await daemonStatus(agent.path);
    expect(status?.servers).toHaveLength(1);
    expect(status?.servers[0]).toMatchObject({ name: "everything", names: ["everything", "everything-too"] });
    await b.client.close();
    await expect
      .poll(async () => (await daemonStatus(agent.path))?.servers[0]?.names)
      .toEqual(["everything"]);
    await a.client.close();
  });

  it("never cross ids under many concurrent calls", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    const calls = Array.from({ length: 40 }, (_, i) => {
      const session = i % 2 === 0 ? a : b;
      return session.client
        .callTool({ name: "get-sum", arguments: { a: i, b: 1000 } })
        .then((result) => ({ i, text: firstText(result) }));
    });
    for (const { i, text } of await Promise.all(calls))
      expect(text).toBe(`The sum of ${i} and 1000 is ${i + 1000}.`);
    await a.client.close();
    await b.client.close();
  });

  it("speak plain newline-delimited MCP after the hello line, even when sent in the same write", async () => {
    await openSession(agent.path, "alpha"); // starts the daemon and the server
    const paths = daemonPaths(agent.path);
    const token = await readFile(paths.token, "utf8");
    const hello = {
      "pi-mcp-daemon": 1,
      token,
      op: "attach",
      name: "everything",
      spec: everythingSpec(),
      clientKey: "elicitation",
      idleTimeoutMs: 1000,
    };
    const initialize = {
      jsonrpc: "2.0",
      id: "raw-1",
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "raw", version: "1" },
      },
    };
    const lines = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const socket = connect(paths.socket);
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk.toString();
        const got = data.split("\n").filter(Boolean);
        if (got.length >= 2) {
          socket.destroy();
          resolve(got.map((line) => JSON.parse(line) as Record<string, unknown>));
        }
      });
      socket.on("error", reject);
      socket.write(`${JSON.stringify(hello)}\n${JSON.stringify(initialize)}\n`);
    });
    expect(lines[0]).toMatchObject({ ok: true, attach: { reused: true } });
    expect(lines[1]).toMatchObject({
      jsonrpc: "2.0",
      id: "raw-1",
      result: { serverInfo: expect.anything() },
    });
  });
});
