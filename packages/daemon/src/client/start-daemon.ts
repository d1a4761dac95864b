/**
 * Reaching the daemon, starting it when none runs. Sessions racing to start
 * one take turns on a lock file; whoever comes second finds the first one's
 * daemon listening. The daemon is started detached (its own process group,
 * no terminal, no pipes kept) and says "ready" on an extra pipe (fd 3) once
 * its socket accepts connections, so the wait is for that event, bounded by
 * a deadline.
 */
import { spawn } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describeError, withFileLock } from "@pi-mcp-adapter/core";
import type { DaemonPaths } from "../daemon-paths.js";
import { DaemonError } from "../errors.js";
import { connectSocket, isNoDaemon } from "./daemon-connection.js";

/** The daemon's entry script, beside this package's built files. */
export const daemonEntryPath: string = fileURLToPath(new URL("../daemon/daemon-main.js", import.meta.url));

export interface StartOptions {
  daemonCommand?: { command: string; args: string[] };
  startTimeoutMs?: number;
}

/** Variables the daemon reads (timings for tests and tuning), passed on from this process. */
const DAEMON_ENV_PREFIX = "PI_MCP_DAEMON_";
/** What else the daemon process keeps of this session's environment: nothing secret, nothing it would pass on. */
const KEPT_ENV = ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "SystemRoot"];

/** A connected socket to the running daemon, started first if needed. */
export async function connectOrStartDaemon(paths: DaemonPaths, options: StartOptions): Promise<Socket> {
  try {
    return await connectSocket(paths.socket);
  } catch (error) {
    if (!isNoDaemon(error)) throw unreachable(paths, error);
  }
  const timeoutMs = options.startTimeoutMs ?? 10_000;
  return withFileLock(
    paths.startLock,
    async () => {
      try {
        return await connectSocket(paths.socket);
      } catch (error) {
        if (!isNoDaemon(error)) throw unreachable(paths, error);
      }
      await startDaemon(paths, options, timeoutMs);
      try {
        return await connectSocket(paths.socket);
      } catch (error) {
        throw unreachable(paths, error);
      }
    },
    { timeoutMs: timeoutMs + 5_000 },
  );
}

function unreachable(paths: DaemonPaths, error: unknown): DaemonError {
  return new DaemonError(
    "daemon_start_failed",
    `Cannot connect to the shared-server daemon at ${paths.socket}: ${describeError(error)}`,
    { cause: error },
  );
}

async function startDaemon(paths: DaemonPaths, options: StartOptions, timeoutMs: number): Promise<void> {
  const command = options.daemonCommand ?? { command: process.execPath, args: [daemonEntryPath] };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (name.startsWith(DAEMON_ENV_PREFIX) || KEPT_ENV.includes(name)))
      env[name] = value;
  }
  env.PI_MCP_DAEMON_READY_FD = "3";
  const child = spawn(command.command, [...command.args, "--dir", paths.dir], {
    detached: true,
    stdio: ["ignore", "ignore", "ignore", "pipe"],
    env,
    cwd: paths.dir,
  });
  const ready = child.stdio[3] as Readable;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(startFailed(paths, `it did not report ready within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const done = (error?: DaemonError) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      let said = "";
      ready.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes("\n")) done();
      });
      child.once("error", (error) => done(startFailed(paths, error.message)));
      child.once("exit", (code, signal) => {
        // A daemon that found another one already listening exits at once, after saying ready.
        if (said.includes("\n")) done();
        else done(startFailed(paths, `it exited (${signal ?? `code ${code}`}) before it was ready`));
      });
    });
  } finally {
    ready.destroy();
    child.unref();
  }
}

function startFailed(paths: DaemonPaths, why: string): DaemonError {
  return new DaemonError(
    "daemon_start_failed",
    `The shared-server daemon did not start: ${why}; see its log ${paths.log}`,
  );
}
