/**
 * The session's end of a shared server: an MCP SDK `Transport` over an
 * attached daemon connection (newline-delimited JSON-RPC, as on a child's
 * stdio). The daemon's session-count notifications are read here and never
 * reach the SDK client.
 */
import type { Socket } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { DaemonError } from "../errors.js";
import { LineReader } from "../line-reader.js";
import type { SharedAttachment, SharedChannelEnd, SharedServerChannel } from "../types.js";
import { ENDED_NOTIFICATION, SESSIONS_NOTIFICATION } from "../wire.js";

export class SharedChannel implements SharedServerChannel {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  onsessions?: (count: number) => void;
  /** The revision agreed in initialize (the SDK client sets it). */
  protocolVersion: string | undefined;
  ended: SharedChannelEnd | undefined;

  private count: number;
  private started = false;
  private closed = false;
  /** Writes handed to the socket whose outcome is not known yet. */
  private writing = 0;
  /** The daemon's end arrived while writes were out: the channel closes once they are settled. */
  private closeWaiting = false;
  /** The daemon's reason, when it said why before closing. */
  private serverEnd: string | undefined;
  /** Messages that arrived before `start()` (the SDK wires `onmessage` just before it). */
  private early: JSONRPCMessage[] = [];
  private readonly reader: LineReader;

  constructor(
    private readonly socket: Socket,
    readonly attachment: SharedAttachment,
    sessions: number,
    private readonly serverName: string,
    rest: Buffer,
  ) {
    this.count = sessions;
    this.reader = new LineReader(
      (line) => this.receive(line),
      ({ bytes }) =>
        this.onerror?.(
          new Error(`a message of ${bytes} bytes from shared server "${serverName}" was dropped`),
        ),
    );
    socket.on("data", (chunk: Buffer) => this.reader.push(chunk));
    // The daemon never half-closes: its end of the stream means it is gone.
    socket.on("end", () => this.finish());
    socket.on("close", () => this.finish());
    socket.on("error", (error) => this.onerror?.(error));
    if (rest.length > 0) this.reader.push(rest);
  }

  async start(): Promise<void> {
    // The SDK starts a transport once; a second start, or one after close, is a caller's mistake.
    if (this.started || this.closed) {
      const state = this.closed ? "is closed" : "was already started";
      throw new DaemonError("daemon_closed", `the channel to shared server "${this.serverName}" ${state}`);
    }
    this.started = true;
    const early = this.early;
    this.early = [];
    for (const message of early) this.onmessage?.(message);
  }

  /**
   * Writes one message. A write the socket refuses (the daemon is gone)
   * rejects with `daemon_lost`: on a Unix socket, a refused write was never
   * delivered, so the caller may send it again on a new connection. The
   * channel closes only once every write's outcome is known (see `finish`):
   * a close first would fail the request as a plain "connection closed",
   * whose fate is unknown.
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.socket.destroyed || this.socket.writableEnded) {
      return Promise.reject(this.notDelivered());
    }
    this.writing++;
    return new Promise((resolve, reject) => {
      this.socket.write(`${JSON.stringify(message)}\n`, (error) => {
        this.writing--;
        if (error) {
          this.ended ??= { by: "daemon-lost" };
          reject(this.notDelivered(error));
          this.closeWaiting = true;
        } else resolve();
        // After the SDK has seen this write's outcome.
        if (this.writing === 0 && this.closeWaiting) setImmediate(() => this.finish());
      });
    });
  }

  async close(): Promise<void> {
    this.ended ??= { by: "caller" };
    this.socket.end();
    this.socket.destroy();
    this.finish();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  sessions(): number {
    return this.count;
  }

  private receive(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSON.parse(line) as JSONRPCMessage;
    } catch {
      this.onerror?.(
        new Error(`shared server "${this.serverName}" sent a line that is not JSON: ${line.slice(0, 200)}`),
      );
      return;
    }
    if ("method" in message && !("id" in message)) {
      const params = message.params as { sessions?: unknown; reason?: unknown } | undefined;
      if (message.method === SESSIONS_NOTIFICATION) {
        if (typeof params?.sessions === "number") {
          this.count = params.sessions;
          this.onsessions?.(params.sessions);
        }
        return;
      }
      if (message.method === ENDED_NOTIFICATION) {
        this.serverEnd = typeof params?.reason === "string" ? params.reason : "the daemon ended the session";
        return;
      }
    }
    if (this.started) this.onmessage?.(message);
    else this.early.push(message);
  }

  private notDelivered(cause?: Error): DaemonError {
    return new DaemonError(
      "daemon_lost",
      `shared server "${this.serverName}": the daemon went away before the message reached it`,
      { cause },
    );
  }

  private finish(): void {
    if (this.closed) return;
    if (this.writing > 0) {
      // Node settles every write of a destroyed socket, so this waits for moments at most.
      this.closeWaiting = true;
      return;
    }
    this.closed = true;
    this.ended ??=
      this.serverEnd !== undefined ? { by: "server", reason: this.serverEnd } : { by: "daemon-lost" };
    this.reader.reset();
    this.onclose?.();
  }
}
