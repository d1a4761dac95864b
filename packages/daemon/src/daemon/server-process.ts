/**
 * One shared stdio server process: spawned from the session's spec in its
 * own process group (registered with the watchdog), newline-framed JSON-RPC
 * on its stdio, stopped as a group (SIGTERM, then SIGKILL after a grace
 * period). Its stderr is not kept: it may print secrets, and the daemon has
 * no terminal to show it on.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineReader, type OversizedLine } from "../line-reader.js";
import type { SharedSpawnSpec } from "../types.js";
import type { Watchdog } from "./watchdog.js";

export interface ServerProcessEvents {
  message(message: JSONRPCMessage): void;
  /** A line that was not JSON-RPC (described). */
  junk(what: string): void;
  /** A message over the size bound, dropped; its size and last bytes. */
  oversized(line: OversizedLine): void;
  exit(how: string): void;
}

export class ServerProcess {
  readonly pid: number;
  private exited = false;
  private readonly exitedPromise: Promise<void>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    watchdog: Watchdog,
    events: ServerProcessEvents,
  ) {
    this.pid = child.pid as number;
    watchdog.add(this.pid);
    const reader = new LineReader(
      (line) => {
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          return events.junk("a line that is not JSON");
        }
        if (
          typeof message !== "object" ||
          message === null ||
          (message as { jsonrpc?: unknown }).jsonrpc !== "2.0"
        ) {
          return events.junk("a line that is not JSON-RPC 2.0");
        }
        events.message(message as JSONRPCMessage);
      },
      (line) => events.oversized(line),
    );
    child.stdout.on("data", (chunk: Buffer) => reader.push(chunk));
    child.stdin.on("error", () => {});
    this.exitedPromise = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exited = true;
        // Whatever the leader left behind in its group goes too.
        signalGroup(this.pid, "SIGKILL");
        watchdog.remove(this.pid);
        events.exit(signal ? `was killed by ${signal}` : `exited with code ${code}`);
        resolve();
      });
    });
  }

  /** Spawns the server; resolves once it runs, rejects with the spawn error (e.g. ENOENT). */
  static start(
    spec: SharedSpawnSpec,
    watchdog: Watchdog,
    events: ServerProcessEvents,
  ): Promise<ServerProcess> {
    return new Promise((resolve, reject) => {
      const child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: process.platform !== "win32",
        stdio: ["pipe", "pipe", "ignore"],
        windowsHide: true,
      }) as unknown as ChildProcessWithoutNullStreams;
      child.once("error", reject);
      child.once("spawn", () => {
        child.off("error", reject);
        child.on("error", () => {});
        resolve(new ServerProcess(child, watchdog, events));
      });
    });
  }

  send(message: JSONRPCMessage): void {
    if (!this.exited && this.child.stdin.writable) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Ends the process group: SIGTERM, SIGKILL after `graceMs`; resolves once the leader exited. */
  async stop(graceMs: number): Promise<void> {
    if (this.exited) return;
    this.child.stdin.end();
    signalGroup(this.pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(this.pid, "SIGKILL"), graceMs);
    await this.exitedPromise;
    clearTimeout(timer);
  }

  /** Kills at once, synchronously (the daemon is exiting). */
  kill(): void {
    if (!this.exited) signalGroup(this.pid, "SIGKILL");
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === "win32" ? pgid : -pgid, signal);
  } catch {
    // already gone
  }
}
