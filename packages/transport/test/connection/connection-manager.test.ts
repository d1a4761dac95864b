import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  createTempDir,
  isProcessAlive,
  recordedPids,
  serveHttpFault,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConnectionManager,
  type ConnectionManagerOptions,
  type ConnectOptions,
  connectServer,
  type ServerStatus,
} from "../../src/index.js";
import { connectWith, definition, failure, faultStdio, fixtureStdio } from "../helpers.js";

let manager: ConnectionManager | undefined;
afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
});

const connectOptions: ConnectOptions = { killGraceMs: 300 };

const fast: ConnectionManagerOptions = {
  connect: connectWith(connectOptions),
  healthIntervalMs: 200,
  backoff: { initialMs: 50, maxMs: 200 },
};

/** A manager of plain definitions (a fixture spread with a literal `lifecycle` would narrow its type). */
function manage(servers: ServerDefinition[], options: ConnectionManagerOptions = fast): ConnectionManager {
  return new ConnectionManager(servers, options);
}

function track(m: ConnectionManager, name: string): ServerStatus[] {
  const seen: ServerStatus[] = [];
  m.on("status", (s) => {
    if (s.name === name) seen.push(s);
  });
  return seen;
}

describe("ConnectionManager", () => {
  it("connects a lazy server on first use, once for concurrent callers", async () => {
    await using dir = await createTempDir();
    manager = manage([fixtureStdio("lazy", { FIXTURE_PID_DIR: dir.path })], fast);
    const events = track(manager, "lazy");
    expect(manager.status()).toEqual([{ name: "lazy", state: "not-connected" }]);
    const [a, b] = await Promise.all([manager.get("lazy"), manager.get("lazy")]);
    expect(a).toBe(b);
    expect(await recordedPids(dir.path)).toHaveLength(1);
    expect(events.map((e) => e.state)).toEqual(["connecting", "connected"]);
  });

  it("reports how long a connected server's connect took, on the manager's clock", async () => {
    let time = 1_000;
    const real = connectWith(connectOptions);
    manager = manage([fixtureStdio("timed")], {
      ...fast,
      now: () => time,
      connect: async (d, signal) => {
        const connection = await real(d, signal);
        time += 412; // the clock moves while the connect runs
        return connection;
      },
    });
    await manager.get("timed");
    expect(manager.status()).toEqual([{ name: "timed", state: "connected", connectMs: 412 }]);
  });

  it("disconnects an idle lazy server, but never during a running call", async () => {
    await using dir = await createTempDir();
    const slow = { ...faultStdio("idle", "", { FIXTURE_PID_DIR: dir.path }), idleTimeoutMin: 0.005 }; // 300 ms
    manager = manage([slow], fast);
    const connection = await manager.get("idle");
    const result = await connection.callTool("sleep", { ms: 1200 });
    expect(result.content).toEqual([{ type: "text", text: "slept" }]);
    expect(connection.closed).toBe(false);
    await expect.poll(() => manager!.status()[0]!.state, { timeout: 3000 }).toBe("not-connected");
    expect(await waitForExit(await recordedPids(dir.path))).toEqual([]);
    // The next use connects again.
    expect((await (await manager.get("idle")).callTool("echo", { text: "back" })).content).toEqual([
      { type: "text", text: "back" },
    ]);
  });

  it("reports a cached server as cached while it is not connected", () => {
    manager = manage([fixtureStdio("c")], {
      connect: connectWith(),
      hasCachedMetadata: (name) => name === "c",
    });
    expect(manager.status()[0]!.state).toBe("cached");
  });

  it("brings a keep-alive server back by itself after SIGKILL", async () => {
    manager = manage([{ ...fixtureStdio("resident"), lifecycle: "keep-alive" }], fast);
    const events = track(manager, "resident");
    await manager.start();
    const first = await manager.get("resident");
    const pid = first.pid!;
    process.kill(pid, "SIGKILL");
    await expect
      .poll(() => events.some((e) => e.state === "failed" && e.error?.includes("connection lost")))
      .toBe(true);
    await expect.poll(() => manager!.status()[0]!.state, { timeout: 5000 }).toBe("connected");
    const second = await manager.get("resident");
    expect(second.pid).not.toBe(pid);
    expect((await second.callTool("add", { a: 1, b: 2 })).content).toEqual([{ type: "text", text: "3" }]);
  });

  it("says why a server was lost by its exception line, not the lines after its stack trace", async () => {
    manager = manage([faultStdio("buggy", "")], fast);
    const connection = await manager.get("buggy");
    await failure(connection.callTool("crash", { node: true }));
    await expect.poll(() => manager!.status()[0]!.state).toBe("failed");
    expect(manager.status()[0]!.error).toBe(
      "connection lost — server stderr: TypeError: Cannot read properties of undefined (reading 'token')",
    );
  });

  it("replaces a keep-alive server that stops answering health checks", async () => {
    manager = manage([{ ...fixtureStdio("frozen"), lifecycle: "keep-alive" }], fast);
    await manager.start();
    const first = await manager.get("frozen");
    process.kill(first.pid!, "SIGSTOP");
    await expect.poll(() => first.closed, { timeout: 5000 }).toBe(true);
    await expect.poll(() => manager!.status()[0]!.state, { timeout: 5000 }).toBe("connected");
    expect(isProcessAlive(first.pid!)).toBe(false);
    expect((await manager.get("frozen")).pid).not.toBe(first.pid);
  });

  it("keeps a keep-alive server that answers ping with an error (it is alive)", async () => {
    let pings = 0;
    const countingPings: ConnectionManagerOptions["connect"] = async (d, signal) => {
      const connection = await connectServer(d, connectOptions, signal);
      const ping = connection.ping.bind(connection);
      connection.ping = (options) => {
        pings++;
        return ping(options);
      };
      return connection;
    };
    manager = manage([{ ...faultStdio("noping", "no-ping"), lifecycle: "keep-alive" }], {
      ...fast,
      connect: countingPings,
    });
    await manager.start();
    const first = await manager.get("noping");
    // The next check is armed only once the last one was answered: three answered, a fourth sent.
    await expect.poll(() => pings, { timeout: 5000 }).toBeGreaterThanOrEqual(4);
    expect(first.closed).toBe(false);
    expect(await manager.get("noping")).toBe(first);
  });

  it("lets a lazy-keep-alive server stay resident once used", async () => {
    manager = manage([{ ...fixtureStdio("lka"), lifecycle: "lazy-keep-alive" }], fast);
    await manager.start();
    expect(manager.status()[0]!.state).toBe("not-connected");
    const first = await manager.get("lka");
    process.kill(first.pid!, "SIGKILL");
    await expect.poll(() => manager!.status()[0]!.state, { timeout: 5000 }).toBe("connected");
  });

  it("does not reconnect an eager server by itself, but does on the next use after it crashed", async () => {
    manager = manage([{ ...fixtureStdio("eager"), lifecycle: "eager" }], fast);
    await manager.start();
    expect(manager.status()[0]!.state).toBe("connected");
    const first = await manager.get("eager");
    process.kill(first.pid!, "SIGKILL");
    await expect.poll(() => manager!.status()[0]!.state).toBe("failed");
    // Nothing is scheduled and nothing holds it back: it stays failed until the next use starts it.
    expect(manager.status()[0]!.retryAt).toBeUndefined();
    expect((await manager.get("eager")).pid).not.toBe(first.pid);
  });

  it("starts eager and keep-alive servers in parallel within the start bound", async () => {
    await using dir = await createTempDir();
    const slow = (name: string) => ({
      ...faultStdio(name, "slow-initialize", { FAULT_DELAY_MS: "600", FIXTURE_PID_DIR: dir.path }),
      lifecycle: "eager" as const,
    });
    const stuck = { ...faultStdio("stuck", "never-initialize"), lifecycle: "keep-alive" as const };
    manager = manage([slow("a"), slow("b"), stuck, fixtureStdio("lazy")], {
      ...fast,
      startTimeoutMs: 4000,
    });
    const statuses = await manager.start();
    const byName = Object.fromEntries(statuses.map((s) => [s.name, s.state]));
    expect(byName).toEqual({ a: "connected", b: "connected", stuck: "connecting", lazy: "not-connected" });
  });

  it("reports failures with how long ago, and needs-auth for 401", async () => {
    await using locked = await serveHttpFault("status-401");
    let now = 1_000_000;
    manager = manage(
      [
        faultStdio("dies", "exit-on-initialize"),
        definition({ name: "locked", transport: "http", url: locked.url }),
      ],
      { ...fast, connect: connectWith({ ...connectOptions, now: () => now }), now: () => now },
    );
    await failure(manager.get("dies"));
    await failure(manager.get("locked"));
    now += 5000;
    const [dies, auth] = manager.status();
    expect(dies).toMatchObject({ state: "failed", failedAgoMs: 5000 });
    expect(dies!.error).toContain("fatal: cannot open database");
    expect(auth!.state).toBe("needs-auth");
  });

  it("refuses disabled and unknown servers with clear messages", async () => {
    manager = manage([{ ...fixtureStdio("off"), disabled: true }], { connect: connectWith() });
    expect(manager.status()).toEqual([{ name: "off", state: "disabled" }]);
    expect((await failure(manager.get("off"))).message).toBe('MCP server "off" is disabled');
    expect((await failure(manager.get("nope"))).message).toBe('Unknown MCP server "nope" (configured: off)');
  });

  it("never lets a stale connect replace a newer one (generation guard)", async () => {
    await using dir = await createTempDir();
    let attempt = 0;
    const def = fixtureStdio("gen", { FIXTURE_PID_DIR: dir.path });
    manager = manage([def], {
      ...fast,
      connect: async (d) => {
        attempt++;
        if (attempt === 1) {
          const slow = {
            ...faultStdio(d.name, "slow-initialize", { FAULT_DELAY_MS: "800", FIXTURE_PID_DIR: dir.path }),
          };
          return connectServer(slow, connectOptions);
        }
        return connectServer(d, connectOptions);
      },
    });
    const stale = failure(manager.get("gen"));
    const fresh = await manager.reconnect("gen");
    expect((await stale).code).toBe("closed");
    expect(await manager.get("gen")).toBe(fresh);
    expect(fresh.serverVersion?.name).toBe("fixture-stdio");
    const pids = await recordedPids(dir.path);
    const survivors = pids.filter((p) => p !== fresh.pid);
    expect(await waitForExit(survivors)).toEqual([]);
  });

  it("shuts down every connection and child, including connects in flight", async () => {
    await using dir = await createTempDir();
    const env = { FIXTURE_PID_DIR: dir.path };
    manager = manage(
      [
        { ...fixtureStdio("one", env), lifecycle: "keep-alive" },
        { ...faultStdio("two", "grandchild", env), lifecycle: "eager" },
        faultStdio("three", "slow-initialize", { ...env, FAULT_DELAY_MS: "1500" }),
      ],
      fast,
    );
    await manager.start();
    const pending = manager.get("three").catch(() => undefined);
    await expect.poll(async () => (await recordedPids(dir.path)).length, { timeout: 5000 }).toBe(4);
    await manager.shutdown();
    await pending;
    expect(await waitForExit(await recordedPids(dir.path))).toEqual([]);
    expect((await failure(manager.get("one"))).code).toBe("closed");
  });
});
