/**
 * A stdio transport that spawns the server in its own process group and
 * frames JSON-RPC messages by newline. Unlike the SDK's stdio transport it
 * ends the whole process tree on close and never lets stderr reach the host
 * terminal.
 */
import type { ChildProcess } from "node:child_process";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type FrameOptions, LineFramedTransport } from "./line-framed-transport.js";
import { DEFAULT_KILL_GRACE_MS, terminateProcessTree, trackChild } from "./process-tree.js";
import { type SpawnFn, spawnProcess } from "./spawn-process.js";

export interface ProcessTransportOptions extends FrameOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Receives every stderr chunk of the server (decoded as UTF-8). */
  onStderr?: (chunk: string) => void;
  /** Time between SIGTERM and SIGKILL on close. Default 2000 ms. */
  killGraceMs?: number;
  /** Starts the process; default `cross-spawn` (spawn-process.ts), which runs Windows shims. */
  spawn?: SpawnFn;
}

export class ProcessTransport extends LineFramedTransport {
  private child: ChildProcess | undefined;
  private untrack: (() => void) | undefined;

  constructor(private readonly options: ProcessTransportOptions) {
    super(options);
  }

  /** Pid of the server process (the leader of its process group). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("ProcessTransport already started");
    const spawn = this.options.spawn ?? spawnProcess;
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args ?? [], {
        env: this.options.env,
        cwd: this.options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true,
      });
      this.child = child;
      child.once("spawn", () => {
        this.untrack = trackChild(child);
        resolve();
      });
      child.once("error", (error: NodeJS.ErrnoException) => {
        const message =
          error.code === "ENOENT"
            ? `command not found: ${this.options.command}`
            : `could not start ${this.options.command}: ${error.message}`;
        const wrapped = new Error(message, { cause: error });
        if (child.pid === undefined) reject(wrapped);
        else this.onerror?.(wrapped);
      });
      child.once("close", () => this.finish());
      child.stdout?.on("data", (chunk: Buffer) => this.deliver(chunk));
      child.stderr?.on("data", (chunk: Buffer) => this.options.onStderr?.(chunk.toString("utf8")));
      child.stdin?.on("error", (error) => this.onerror?.(error));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(this.frame(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.stdin?.end();
    await terminateProcessTree(child, this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    this.finish();
  }

  protected override finish(): void {
    if (!this.closed) this.untrack?.();
    super.finish();
  }
}
