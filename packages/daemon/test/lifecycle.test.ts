import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  agentDirPerTest,
  daemonStatus,
  everythingSpec,
  everythingWithGrandchild,
  isRunning,
  openSession,
  stopDaemon,
} from "./daemon-fixtures.js";

// Short timings for this file's daemons (read by the daemon a session starts).
process.env.PI_MCP_DAEMON_EXIT_MS = "300";
process.env.PI_MCP_DAEMON_KILL_GRACE_MS = "500";

const agent = agentDirPerTest();

describe("the daemon's and the servers' lifetimes", () => {
  it("two sessions racing to start the daemon end up with one daemon and one server", async () => {
    const [a, b, c] = await Promise.all([
      openSession(agent.path, "alpha"),
      openSession(agent.path, "beta"),
      openSession(agent.path, "gamma"),
    ]);
    const daemons = new Set([a, b, c].map((s) => s.channel.attachment?.daemonPid));
    const servers = new Set([a, b, c].map((s) => s.channel.attachment?.pid));
    expect(daemons.size).toBe(1);
    expect(servers.size).toBe(1);
    expect([a, b, c].filter((s) => s.channel.attachment?.reused === false)).toHaveLength(1);
  });

  it("a killed daemon: channels close, nothing of its server outlives it, the next open starts a new daemon", async () => {
    const spec = everythingWithGrandchild(agent.join("grandchild.pid"));
    const a = await openSession(agent.path, "alpha", { spec });
    const b = await openSession(agent.path, "beta", { spec });
    const daemonPid = a.channel.attachment?.daemonPid as number;
    const serverPid = a.channel.attachment?.pid as number;
    const grandchild = Number(await readFile(agent.join("grandchild.pid"), "utf8"));
    expect(isRunning(grandchild)).toBe(true);
    process.kill(daemonPid, "SIGKILL");
    await Promise.all([a.closed, b.closed]);
    expect(a.channel.ended).toEqual({ by: "daemon-lost" });
    await expect.poll(() => isRunning(serverPid)).toBe(false);
    await expect.poll(() => isRunning(grandchild)).toBe(false);

    const again = await openSession(agent.path, "alpha");
    expect(again.channel.attachment?.daemonPid).not.toBe(daemonPid);
    expect(again.channel.attachment?.pid).not.toBe(serverPid);
    const result = await again.client.callTool({ name: "echo", arguments: { message: "back" } });
    expect(JSON.stringify(result)).toContain("Echo: back");
  });

  it("a crashed server closes its sessions' channels; the next open spawns it again", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    const serverPid = a.channel.attachment?.pid as number;
    process.kill(serverPid, "SIGKILL");
    await Promise.all([a.closed, b.closed]);
    expect(b.channel.ended).toEqual({ by: "server", reason: "the server process was killed by SIGKILL" });
    const again = await openSession(agent.path, "alpha");
    expect(again.channel.attachment?.reused).toBe(false);
    expect(again.channel.attachment?.pid).not.toBe(serverPid);
    expect(again.channel.attachment?.daemonPid).toBe(a.channel.attachment?.daemonPid);
  });

  it("after the last session leaves and the idle time passes, the server stops; then the daemon exits", async () => {
    const spec = everythingWithGrandchild(agent.join("grandchild.pid"));
    const a = await openSession(agent.path, "alpha", { idleTimeoutMs: 200, spec });
    const b = await openSession(agent.path, "beta", { idleTimeoutMs: 200, spec });
    const serverPid = a.channel.attachment?.pid as number;
    const grandchild = Number(await readFile(agent.join("grandchild.pid"), "utf8"));
    const daemonPid = a.channel.attachment?.daemonPid as number;
    await a.client.close();
    await expect.poll(() => b.channel.sessions()).toBe(1);
    expect(a.channel.ended).toEqual({ by: "caller" });
    expect(isRunning(serverPid)).toBe(true);
    await b.client.close();
    await expect.poll(() => isRunning(serverPid)).toBe(false);
    await expect.poll(() => isRunning(grandchild)).toBe(false);
    await expect.poll(() => isRunning(daemonPid)).toBe(false);
    expect(await daemonStatus(agent.path)).toBeUndefined();
  });

  it("a session attaching while the server idles keeps it", async () => {
    const a = await openSession(agent.path, "alpha", { idleTimeoutMs: 60_000 });
    const serverPid = a.channel.attachment?.pid as number;
    await a.client.close();
    await expect.poll(async () => (await daemonStatus(agent.path))?.servers[0]?.idleSince).toBeDefined();
    const b = await openSession(agent.path, "beta");
    expect(b.channel.attachment).toMatchObject({ pid: serverPid, reused: true });
    expect((await daemonStatus(agent.path))?.servers[0]?.idleSince).toBeUndefined();
  });

  it("stopDaemon stops the servers and the daemon", async () => {
    const a = await openSession(agent.path, "alpha");
    const serverPid = a.channel.attachment?.pid as number;
    const daemonPid = a.channel.attachment?.daemonPid as number;
    expect(await stopDaemon(agent.path)).toBe(true);
    await a.closed;
    expect(a.channel.ended).toEqual({ by: "server", reason: "the daemon was stopped" });
    await expect.poll(() => isRunning(serverPid)).toBe(false);
    await expect.poll(() => isRunning(daemonPid)).toBe(false);
    expect(await daemonStatus(agent.path)).toBeUndefined();
    expect(await stopDaemon(agent.path)).toBe(false);
  });

  it("a server that cannot start is refused with the reason; the daemon keeps serving others", async () => {
    const missing = { command: "/nonexistent/mcp-server", args: [], env: {} };
    await expect(openSession(agent.path, "alpha", { spec: missing, serverName: "broken" })).rejects.toThrow(
      'The daemon could not share server "broken": cannot start "/nonexistent/mcp-server": no such command (ENOENT)',
    );
    const badCwd = { ...everythingSpec(), cwd: agent.join("no-such-dir") };
    await expect(openSession(agent.path, "alpha", { spec: badCwd })).rejects.toThrow(
      /its working directory .*no-such-dir does not exist/,
    );
    const ok = await openSession(agent.path, "alpha");
    expect(ok.channel.attachment?.reused).toBe(false);
    expect((await daemonStatus(agent.path))?.servers.map((s) => s.name)).toEqual(["everything"]);
  });
});
