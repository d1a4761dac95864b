/**
 * What the daemon process is told: its directory (`--dir`) and a few timings
 * from the environment, which sessions pass on when they start it (tests
 * shorten them).
 */

export interface DaemonSettings {
  dir: string;
  /** Exit after this long with no server and no session. `PI_MCP_DAEMON_EXIT_MS`, default 60 s. */
  exitAfterMs: number;
  /** Between SIGTERM and SIGKILL when stopping a server. `PI_MCP_DAEMON_KILL_GRACE_MS`, default 2 s. */
  killGraceMs: number;
  /** A connection that sends no hello within this is closed. Default 10 s. */
  helloTimeoutMs: number;
  /** The pipe the starting session waits on for "ready" (`PI_MCP_DAEMON_READY_FD`). */
  readyFd: number | undefined;
}

export function daemonSettings(argv: string[], env: NodeJS.ProcessEnv): DaemonSettings {
  const at = argv.indexOf("--dir");
  const dir = at >= 0 ? argv[at + 1] : undefined;
  if (!dir) throw new Error("usage: pi-mcp-daemon --dir <agent dir>/mcp-daemon");
  return {
    dir,
    exitAfterMs: milliseconds(env, "PI_MCP_DAEMON_EXIT_MS", 60_000),
    killGraceMs: milliseconds(env, "PI_MCP_DAEMON_KILL_GRACE_MS", 2_000),
    helloTimeoutMs: 10_000,
    readyFd: env.PI_MCP_DAEMON_READY_FD ? Number(env.PI_MCP_DAEMON_READY_FD) : undefined,
  };
}

function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 2 ** 31 - 1) {
    throw new Error(`${name} should be a number of milliseconds, not ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return value;
}
