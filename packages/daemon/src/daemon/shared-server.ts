/**
 * One shared server: its process, the multiplexer in front of it, the
 * sessions attached, and its lifetime. Reference counted: when the last
 * session leaves, the server idles for the idle time (that of the session
 * that attached last) and is then stopped; a session attaching meanwhile
 * keeps it. When the process exits by itself every session's connection is
 * closed, so each caller sees its channel close and reconnects as it would
 * after a crash of its own child.
 */
import { stat } from "node:fs/promises";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MAX_LINE_BYTES, type OversizedLine } from "../line-reader.js";
import type { DaemonServerStatus, SharedSpawnSpec } from "../types.js";
import { ENDED_NOTIFICATION, SESSIONS_NOTIFICATION } from "../wire.js";
import type { DaemonLog } from "./daemon-log.js";
import { Multiplexer } from "./multiplexer.js";
import { ServerProcess } from "./server-process.js";
import type { Watchdog } from "./watchdog.js";

/** A session's connection as the server sees it. */
export interface AttachedSession {
  readonly id: number;
  /** The name this session's config gives the server (two entries alike share one process). */
  readonly name?: string;
  /** Whether it asked for session-count notifications. */
  readonly sessionUpdates: boolean;
  send(message: JSONRPCMessage): void;
  /** Ends the connection (the server is gone). */
  end(): void;
}

export interface SharedServerOptions {
  name: string;
  key: string;
  spec: SharedSpawnSpec;
  killGraceMs: number;
  watchdog: Watchdog;
  log: DaemonLog;
  /** Called once when the server is gone (stopped or exited): the daemon forgets it. */
  onEnd(server: SharedServer): void;
}

/** Bytes as MiB for messages: `70 MiB`. */
function mebibytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
}

/** The longest delay `setTimeout` takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class SharedServer {
  private readonly sessions = new Map<number, AttachedSession>();
  private readonly mux: Multiplexer;
  private process: ServerProcess | undefined;
  private readonly startedAt = new Date();
  private idleSince: Date | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleTimeoutMs = 0;
  private ended = false;

  private constructor(private readonly options: SharedServerOptions) {
    this.mux = new Multiplexer(
      (message) => this.process?.send(message),
      (line) => options.log(`server ${this.label}: ${line}`),
    );
  }

  /** Spawns the server; rejects with the spawn error. */
  static async start(options: SharedServerOptions): Promise<SharedServer> {
    const cwd = options.spec.cwd;
    if (cwd !== undefined && !(await stat(cwd).catch(() => undefined))?.isDirectory()) {
      throw new Error(`its working directory ${cwd} does not exist or is not a directory`);
    }
    const server = new SharedServer(options);
    server.process = await ServerProcess.start(options.spec, options.watchdog, {
      message: (message) => server.mux.fromServer(message),
      junk: (what) => options.log(`server ${server.label}: skipped ${what} on its stdout`),
      oversized: (line) => server.tooLarge(line),
      exit: (how) => server.exited(how),
    });
    options.log(`server ${server.label}: started, pid ${server.process.pid}`);
    return server;
  }

  get key(): string {
    return this.options.key;
  }

  get pid(): number {
    return this.process?.pid ?? 0;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private get label(): string {
    return `"${this.options.name}" (${this.options.key})`;
  }

  attach(session: AttachedSession, idleTimeoutMs: number): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.idleSince = undefined;
    this.idleTimeoutMs = idleTimeoutMs;
    this.sessions.set(session.id, session);
    this.mux.add(session);
    this.options.log(`server ${this.label}: session ${session.id} attached (${this.sessions.size} now)`);
    this.announceCount();
  }

  fromSession(sessionId: number, message: JSONRPCMessage): void {
    this.mux.fromSession(sessionId, message);
  }

  detach(sessionId: number): void {
    if (!this.sessions.delete(sessionId)) return;
    this.mux.remove(sessionId);
    this.options.log(`server ${this.label}: session ${sessionId} left (${this.sessions.size} now)`);
    this.announceCount();
    if (this.sessions.size > 0 || this.ended) return;
    this.idleSince = new Date();
    this.idleTimer = setTimeout(
      () => {
        this.options.log(`server ${this.label}: idle for ${this.idleTimeoutMs} ms, stopping`);
        void this.stop(`stopped after ${this.idleTimeoutMs} ms without sessions`);
      },
      Math.min(this.idleTimeoutMs, MAX_TIMER_MS),
    );
  }

  status(): DaemonServerStatus {
    return {
      name: this.options.name,
      names: this.names(),
      key: this.options.key,
      pid: this.pid,
      sessions: this.sessions.size,
      startedAt: this.startedAt.toISOString(),
      ...(this.idleSince ? { idleSince: this.idleSince.toISOString() } : {}),
    };
  }

  /** The first session's name, then every other name an attached session gives the server. */
  private names(): string[] {
    const names = new Set([this.options.name]);
    for (const session of this.sessions.values()) if (session.name) names.add(session.name);
    return [...names];
  }

  /** Stops the process group; sessions still attached see their connection close. */
  async stop(why: string): Promise<void> {
    this.end(why);
    await this.process?.stop(this.options.killGraceMs);
  }

  /** Kills at once, synchronously (the daemon is exiting). */
  kill(): void {
    this.process?.kill();
  }

  /** A message over the bound was dropped: the request it answered fails now instead of timing out. */
  private tooLarge({ bytes, tail }: OversizedLine): void {
    const message = `answer too large: ${mebibytes(bytes)} from shared server "${this.options.name}" (limit ${mebibytes(MAX_LINE_BYTES)})`;
    const id = [...tail.matchAll(/"id"\s*:\s*(\d+)/g)].at(-1)?.[1];
    const failed = id !== undefined && this.mux.failRequest(Number(id), message);
    this.options.log(
      `server ${this.label}: dropped a message of ${bytes} bytes (over the bound)${failed ? ", failed the request it answered" : ""}`,
    );
  }

  private exited(how: string): void {
    this.options.log(`server ${this.label}: ${how}`);
    this.end(`the server process ${how}`);
  }

  /** Ends every session, telling those that asked for updates why (`ENDED_NOTIFICATION`). */
  private end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    const notice = { jsonrpc: "2.0", method: ENDED_NOTIFICATION, params: { reason: why } } as JSONRPCMessage;
    for (const session of this.sessions.values()) {
      if (session.sessionUpdates) session.send(notice);
      session.end();
    }
    this.sessions.clear();
    this.options.onEnd(this);
  }

  private announceCount(): void {
    const message = {
      jsonrpc: "2.0",
      method: SESSIONS_NOTIFICATION,
      params: { sessions: this.sessions.size },
    } as JSONRPCMessage;
    for (const session of this.sessions.values()) if (session.sessionUpdates) session.send(message);
  }
}
