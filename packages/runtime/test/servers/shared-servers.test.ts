/**
 * `settings.shareServers` through a real runtime: two runtimes (two sessions)
 * with the same stdio server-everything reach one process through the real
 * daemon in their agent dir, and status says so — also when their
 * environments differ as two terminals' do, but not when a variable the
 * server's `env` references differs; a server's `shared: false`
 * keeps it to the session; a call made the moment the daemon died still
 * goes through.
 */
import { readdirSync, readFileSync } from "node:fs";
import { daemonPaths, daemonStatus, stopDaemon } from "@pi-mcp-adapter/daemon";
import { createTempDir, serverEverythingPath, type TempDir, terminalEnv } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type AdapterRuntime, createRuntime } from "../../src/index.js";
import { formatStatus } from "../../src/startup.js";

let agent: TempDir;
const runtimes: AdapterRuntime[] = [];
beforeEach(async () => {
  agent = await createTempDir("pi-shared-rt-");
  vi.stubEnv("PI_CODING_AGENT_DIR", agent.path);
});
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.shutdown();
  await stopDaemon(agent.path).catch(() => false);
  vi.unstubAllEnvs();
  await agent.remove();
});

async function session(server: Record<string, unknown> = {}): Promise<AdapterRuntime> {
  const runtime = await createRuntime({
    cwd: agent.path,
    config: {
      settings: { shareServers: true },
      mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath], ...server } },
    },
    metadataCacheFile: false,
    serverLogFile: false,
    npxCacheFile: false,
  });
  runtimes.push(runtime);
  return runtime;
}

const echoed = async (runtime: AdapterRuntime, message: string) =>
  JSON.stringify((await runtime.call("everything_echo", { message })).content);

describe("shareServers", () => {
  it("two sessions share one server process; status shows shared (2 sessions)", async () => {
    const [a, b] = [await session(), await session()];
    expect(await echoed(a, "from A")).toContain("from A");
    expect(await echoed(b, "from B")).toContain("from B");
    const status = await daemonStatus(agent.path);
    expect(status?.servers.map((s) => s.sessions)).toEqual([2]);
    await vi.waitUntil(() => JSON.stringify(a.listings.summaries()[0]?.shared) === '{"sessions":2}', {
      timeout: 10_000,
      interval: 50,
    });
    expect(formatStatus(a.listings.summaries(), [])).toContain(
      "- everything: connected, shared (2 sessions), ",
    );
  });

  it("sessions from two terminals share one process; a different referenced variable gets its own", async () => {
    const terminal = (pane: number, token: string) => {
      const env = {
        ...terminalEnv(pane, `/home/user/link-${pane}`, `/tmp/elsewhere-${pane}`),
        SHARED_RT_TOKEN: token,
      };
      for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    };
    const tokenServer = { env: { TOKEN: `\${SHARED_RT_TOKEN}` } };
    const [a, b] = [await session(tokenServer), await session(tokenServer)];
    const [c, d] = [await session(), await session()];
    const [alice, bob] = ["alice", "bob"].map((who) => `tok-${who}-${Math.random().toString(36).slice(2)}`);
    terminal(1, alice!);
    expect(await echoed(a, "A")).toContain("A");
    expect(await echoed(c, "C")).toContain("C");
    terminal(2, bob!);
    expect(await echoed(b, "B")).toContain("B");
    expect(await echoed(d, "D")).toContain("D");
    const servers = (await daemonStatus(agent.path))?.servers ?? [];
    // c and d (no referenced variable) share; a (alice) and b (bob) do not.
    expect(servers.map((s) => s.sessions).sort()).toEqual([1, 1, 2]);
    expect(new Set(servers.map((s) => s.pid)).size).toBe(3);
    // Each server sees its own token and nothing of the terminals; neither token shows in status or log.
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    const seen = servers.map((s) => environ(s.pid));
    expect(seen.filter((env) => env.includes(`TOKEN=${alice}`))).toHaveLength(1);
    expect(seen.filter((env) => env.includes(`TOKEN=${bob}`))).toHaveLength(1);
    const terminalNames = ["TERM_SESSION_ID", "TMUX_PANE", "WINDOWID", "OLDPWD", "SHLVL", "_", "PWD", "TERM"];
    for (const env of seen) expect(env.filter((v) => terminalNames.includes(v.split("=")[0]!))).toEqual([]);
    const shown = JSON.stringify(servers) + readFileSync(daemonPaths(agent.path).log, "utf8");
    for (const token of [alice, bob]) expect(shown).not.toContain(token);
  });

  it("a call made the moment the daemon died is sent again through a new daemon, not failed", async () => {
    const runtime = await session();
    expect(await echoed(runtime, "before")).toContain("before");
    const daemon = (await daemonStatus(agent.path))?.pid;
    expect(daemon).toBeGreaterThan(0);
    process.kill(daemon!, "SIGKILL");
    // Wait without yielding, so this session has not yet read the daemon's end of the socket.
    while (!isDead(daemon!)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    expect(await echoed(runtime, "after")).toContain("Echo: after");
    expect((await daemonStatus(agent.path))?.pid).not.toBe(daemon);
  });

  it("shared: false keeps the server to the session", async () => {
    const runtime = await session({ shared: false });
    expect(await echoed(runtime, "own")).toContain("own");
    expect(runtime.listings.summaries()[0]?.shared).toBeUndefined();
    expect(formatStatus(runtime.listings.summaries(), [])).not.toContain("shared");
    expect(await daemonStatus(agent.path)).toBeUndefined();
  });
});

/**
 * Gone, or a zombie none of whose threads is still exiting: only then has the
 * kernel closed its sockets (the thread group leader shows as a zombie while
 * the others may still hold the open files).
 */
function isDead(pid: number): boolean {
  try {
    const zombie = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") === true;
    return zombie && readdirSync(`/proc/${pid}/task`).length <= 1;
  } catch {
    return true;
  }
}
