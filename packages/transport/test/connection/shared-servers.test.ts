/**
 * Shared stdio servers through the real daemon (`@pi-mcp-adapter/daemon`,
 * its built entry) and the real server-everything: two connections with the
 * same definition reach one process, each getting its own answers; sessions
 * that declare different client capabilities or protocol settings do not share; a killed daemon is
 * no server failure (the next use reconnects at once through a new daemon);
 * and where the daemon cannot be had, the server runs in this session with a
 * status reason.
 */
import { daemonStatus, stopDaemon } from "@pi-mcp-adapter/daemon";
import { createTempDir, isProcessAlive, serverEverythingPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ConnectionManager,
  type ConnectOptions,
  connectServer,
  type ServerConnection,
} from "../../src/index.js";
import { connectWith, definition, failure } from "../helpers.js";

const everything = (extra: Partial<Parameters<typeof definition>[0]> = {}) =>
  definition({
    name: "everything",
    transport: "stdio",
    command: process.execPath,
    args: [serverEverythingPath],
    shared: true,
    ...extra,
  });

const WAIT = { timeout: 15_000, interval: 50 };
const text = (result: { content: unknown[] }) => JSON.stringify(result.content);

let agent: TempDir;
const opened: ServerConnection[] = [];
const managers: ConnectionManager[] = [];
beforeEach(async () => {
  agent = await createTempDir("pi-shared-");
});
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.shutdown();
  for (const connection of opened.splice(0)) await connection.close();
  await stopDaemon(agent.path).catch(() => false);
  await agent.remove();
});

const sharing = (extra: Partial<NonNullable<ConnectOptions["sharing"]>> = {}): ConnectOptions => ({
  sharing: { agentDir: agent.path, idleTimeoutMs: 60_000, ...extra },
});
async function open(options: ConnectOptions, def = everything()): Promise<ServerConnection> {
  const connection = await connectServer(def, { resolveCommand: null, ...options });
  opened.push(connection);
  return connection;
}

describe("shared stdio servers", () => {
  it("two connections share one process and each gets its own answers; status counts the sessions", async () => {
    const a = await open(sharing());
    const b = await open(sharing());
    expect(a.via).toBe("stdio");
    expect(a.pid).toBeGreaterThan(0);
    expect(b.pid).toBe(a.pid);
    await vi.waitUntil(() => JSON.stringify(a.shared) === '{"sessions":2}', WAIT);
    const [fromA, fromB] = await Promise.all([
      a.callTool("echo", { message: "from A" }),
      b.callTool("echo", { message: "from B" }),
    ]);
    expect(text(fromA)).toContain("from A");
    expect(text(fromA)).not.toContain("from B");
    expect(text(fromB)).toContain("from B");
    const status = await daemonStatus(agent.path);
    expect(status?.servers.map((s) => [s.name, s.pid, s.sessions])).toEqual([["everything", a.pid, 2]]);
    await b.close();
    await vi.waitUntil(() => JSON.stringify(a.shared) === '{"sessions":1}', WAIT);
    expect(isProcessAlive(a.pid!)).toBe(true);
  });

  it("sessions that declare different client capabilities get different processes", async () => {
    const plain = await open(sharing());
    const asking = await open({
      ...sharing(),
      handlers: { elicitation: async () => ({ action: "decline" }) },
    });
    expect(asking.pid).not.toBe(plain.pid);
    // server-everything offers its elicitation tool only to a client that declared the capability.
    const names = async (c: ServerConnection) => (await c.listTools()).map((t) => t.name);
    expect(await names(asking)).toContain("trigger-elicitation-request");
    expect(await names(plain)).not.toContain("trigger-elicitation-request");
  });

  it("sessions that speak different protocol settings get different processes", async () => {
    const legacy = await open(sharing());
    const negotiating = await open(sharing(), everything({ protocol: "auto" }));
    expect(text(await negotiating.callTool("echo", { message: "auto" }))).toContain("auto");
    expect(negotiating.pid).not.toBe(legacy.pid);
    expect((await daemonStatus(agent.path))?.servers.map((s) => s.sessions)).toEqual([1, 1]);
  });

  it("a request timeout and a cancelled call behave as on an own process; the connection stays usable", async () => {
    const connection = await open(sharing(), everything({ requestTimeoutMs: 2_000 }));
    const long = { duration: 20, steps: 1 };
    const slow = await failure(connection.callTool("trigger-long-running-operation", long));
    expect(slow.code).toBe("request_timeout");
    const abort = new AbortController();
    const cancelled = failure(
      connection.callTool("trigger-long-running-operation", long, { signal: abort.signal }),
    );
    abort.abort();
    expect((await cancelled).message).toMatch(/cancel|abort/i);
    expect(text(await connection.callTool("echo", { message: "still here" }))).toContain("still here");
  });

  it("a killed daemon is no server failure: the next use reconnects at once through a new daemon", async () => {
    const manager = new ConnectionManager([everything()], {
      connect: connectWith({ resolveCommand: null, ...sharing() }),
    });
    managers.push(manager);
    const first = await manager.get("everything");
    const before = await daemonStatus(agent.path);
    expect(before?.pid).toBeGreaterThan(0);
    process.kill(before!.pid, "SIGKILL");
    await vi.waitUntil(() => first.closed, WAIT);
    expect(first.daemonLost).toBe(true);
    const [status] = manager.status();
    expect(status?.state).toBe("not-connected");
    expect(status?.error).toBeUndefined();
    const second = await manager.get("everything");
    expect(text(await second.callTool("echo", { message: "again" }))).toContain("again");
    const after = await daemonStatus(agent.path);
    expect(after?.pid).not.toBe(before?.pid);
    expect(after?.servers[0]?.pid).toBe(second.pid);
    expect(manager.status()[0]?.shared).toEqual({ sessions: 1 });
  });

  it("falls back to an own process, saying why, when the daemon will not start", async () => {
    const connection = await open(
      sharing({
        daemonCommand: { command: process.execPath, args: ["-e", "process.exit(3)"] },
        startTimeoutMs: 5_000,
      }),
    );
    expect(connection.shared).toEqual({ reason: expect.stringMatching(/^not shared: .*did not start/) });
    expect(text(await connection.callTool("echo", { message: "own" }))).toContain("own");
    expect(await daemonStatus(agent.path)).toBeUndefined();
  });

  it("shares nothing without the connect option or with shared: false", async () => {
    const a = await open({}, everything());
    const b = await open(sharing(), everything({ shared: false }));
    expect(a.shared).toBeUndefined();
    expect(b.shared).toBeUndefined();
    expect(b.pid).not.toBe(a.pid);
    expect(await daemonStatus(agent.path)).toBeUndefined();
  });
});
