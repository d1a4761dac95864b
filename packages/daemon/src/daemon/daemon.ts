/**
 * The daemon's connections: each one starts with the hello (checked against
 * the token), then becomes a session of a shared server (`attach`), or gets
 * one answer (`status`, `stop`). Servers are found by share key, so a session
 * reaches only a server whose whole spec it presented itself.
 */
import { timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { DaemonPaths } from "../daemon-paths.js";
import { firstLineReader, LineReader } from "../line-reader.js";
import type { DaemonStatus } from "../types.js";
import { type AttachHello, type HelloReply, parseHello } from "../wire.js";
import type { DaemonLog } from "./daemon-log.js";
import type { DaemonSettings } from "./daemon-settings.js";
import type { ShareKeyFn } from "./share-key.js";
import { SharedServer } from "./shared-server.js";
import type { Watchdog } from "./watchdog.js";

/** A hello carries a whole environment; more than this is not a hello. */
const MAX_HELLO_BYTES = 4 * 1024 * 1024;

export interface DaemonParts {
  settings: DaemonSettings;
  paths: DaemonPaths;
  token: string;
  shareKey: ShareKeyFn;
  watchdog: Watchdog;
  log: DaemonLog;
  /** Called when the daemon should end: idle long enough, or asked to stop. */
  onQuit(): void;
}

export class Daemon {
  private readonly servers = new Map<string, SharedServer>();
  /** Servers being spawned, so two sessions attaching at once start one process. */
  private readonly starting = new Map<string, Promise<SharedServer>>();
  private readonly connections = new Set<Socket>();
  private readonly startedAt = new Date();
  private nextSessionId = 1;
  private quitTimer: NodeJS.Timeout | undefined;

  constructor(private readonly parts: DaemonParts) {
    this.checkIdle();
  }

  accept(socket: Socket): void {
    this.connections.add(socket);
    this.checkIdle();
    socket.on("error", () => {});
    socket.once("close", () => {
      this.connections.delete(socket);
      this.checkIdle();
    });
    const timer = setTimeout(() => socket.destroy(), this.parts.settings.helloTimeoutMs);
    const onData = firstLineReader(
      (line, rest) => {
        clearTimeout(timer);
        socket.off("data", onData);
        void this.dispatch(socket, line, rest);
      },
      () => socket.destroy(),
      MAX_HELLO_BYTES,
    );
    socket.on("data", onData);
  }

  status(): DaemonStatus {
    const servers = [...this.servers.values()].map((s) => s.status());
    return {
      pid: process.pid,
      startedAt: this.startedAt.toISOString(),
      uptimeMs: Date.now() - this.startedAt.getTime(),
      socketPath: this.parts.paths.socket,
      logPath: this.parts.paths.log,
      servers,
      sessions: servers.reduce((sum, s) => sum + s.sessions, 0),
    };
  }

  /** Stops every server (their sessions see their connections close). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.stop("the daemon was stopped")));
  }

  /** Kills every server at once (the daemon is exiting). */
  killAll(): void {
    for (const server of this.servers.values()) server.kill();
  }

  private async dispatch(socket: Socket, line: string, rest: Buffer): Promise<void> {
    const reply = (answer: HelloReply) => socket.write(`${JSON.stringify(answer)}\n`);
    let hello: ReturnType<typeof parseHello>;
    try {
      hello = parseHello(line);
    } catch (error) {
      this.parts.log(`refused a connection: ${(error as Error).message}`);
      reply({ ok: false, code: "bad_hello", error: (error as Error).message });
      return void socket.end();
    }
    if (!this.tokenMatches(hello.token)) {
      this.parts.log("refused a connection: wrong token");
      reply({ ok: false, code: "bad_token", error: `the token does not match ${this.parts.paths.token}` });
      return void socket.end();
    }
    if (hello.op === "status") {
      reply({ ok: true, status: this.status() });
      return void socket.end();
    }
    if (hello.op === "stop") {
      this.parts.log("asked to stop");
      reply({ ok: true, stopping: true });
      // The asking connection stays open until the daemon exits: its close tells the asker we are done.
      return this.parts.onQuit();
    }
    await this.attach(socket, hello, rest, reply);
  }

  private async attach(
    socket: Socket,
    hello: AttachHello,
    rest: Buffer,
    reply: (answer: HelloReply) => void,
  ): Promise<void> {
    const key = this.parts.shareKey(hello.spec, hello.clientKey);
    const existing = this.servers.get(key);
    let server: SharedServer;
    try {
      server = existing && !existing.isEnded ? existing : await this.startServer(key, hello);
    } catch (error) {
      const why =
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? "no such command (ENOENT)"
          : (error as Error).message;
      this.parts.log(`server "${hello.name}" (${key}): cannot start: ${why}`);
      reply({ ok: false, code: "spawn_failed", error: `cannot start "${hello.spec.command}": ${why}` });
      return void socket.end();
    }
    if (socket.destroyed) return;
    if (server.isEnded) {
      reply({
        ok: false,
        code: "server_exited",
        error: `server "${hello.name}" exited as soon as it started`,
      });
      return void socket.end();
    }
    const id = this.nextSessionId++;
    const session = {
      id,
      name: hello.name,
      sessionUpdates: hello.sessionUpdates === true,
      send: (message: JSONRPCMessage) => {
        if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
      },
      end: () => socket.end(),
    };
    reply({
      ok: true,
      attach: {
        key,
        pid: server.pid,
        reused: server === existing,
        daemonPid: process.pid,
        sessions: server.status().sessions + 1,
      },
    });
    server.attach(session, hello.idleTimeoutMs);
    const reader = new LineReader(
      (text) => {
        let message: JSONRPCMessage;
        try {
          message = JSON.parse(text) as JSONRPCMessage;
        } catch {
          return this.parts.log(`session ${id}: skipped a line that is not JSON`);
        }
        server.fromSession(id, message);
      },
      ({ bytes }) => this.parts.log(`session ${id}: dropped a message of ${bytes} bytes (over the bound)`),
    );
    socket.on("data", (chunk: Buffer) => reader.push(chunk));
    socket.once("close", () => server.detach(id));
    if (rest.length > 0) reader.push(rest);
  }

  private startServer(key: string, hello: AttachHello): Promise<SharedServer> {
    const pending = this.starting.get(key);
    if (pending) return pending;
    const started = SharedServer.start({
      name: hello.name,
      key,
      spec: hello.spec,
      killGraceMs: this.parts.settings.killGraceMs,
      watchdog: this.parts.watchdog,
      log: this.parts.log,
      onEnd: (server) => {
        if (this.servers.get(key) === server) this.servers.delete(key);
        this.checkIdle();
      },
    });
    this.starting.set(key, started);
    return started
      .then((server) => {
        if (!server.isEnded) this.servers.set(key, server);
        return server;
      })
      .finally(() => this.starting.delete(key));
  }

  private tokenMatches(token: string): boolean {
    const a = Buffer.from(token);
    const b = Buffer.from(this.parts.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** With no server and no connection for `exitAfterMs`, the daemon quits. */
  private checkIdle(): void {
    clearTimeout(this.quitTimer);
    this.quitTimer = undefined;
    if (this.servers.size > 0 || this.starting.size > 0 || this.connections.size > 0) return;
    this.quitTimer = setTimeout(() => {
      this.parts.log(`no server and no session for ${this.parts.settings.exitAfterMs} ms, exiting`);
      this.parts.onQuit();
    }, this.parts.settings.exitAfterMs);
  }
}
