/**
 * A Unix-socket transport for a local multiplexer such as rmcp-mux: newline
 * framed JSON-RPC over a stream socket. We own only our client socket; the
 * service behind it owns the server process.
 */
import { connect, type Socket } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type FrameOptions, LineFramedTransport } from "./line-framed-transport.js";

export class SocketTransport extends LineFramedTransport {
  private socket: Socket | undefined;

  constructor(
    private readonly path: string,
    frame: FrameOptions = {},
  ) {
    super(frame);
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.path);
      this.socket = socket;
      socket.once("connect", () => {
        socket.off("error", onStartError);
        socket.on("error", (error) => this.onerror?.(error));
        resolve();
      });
      const onStartError = (error: NodeJS.ErrnoException) => {
        const reason =
          error.code === "ENOENT"
            ? "no such socket"
            : error.code === "ECONNREFUSED"
              ? "nothing is listening on it"
              : error.message;
        reject(new Error(`cannot connect to socket ${this.path}: ${reason}`, { cause: error }));
      };
      socket.once("error", onStartError);
      socket.on("data", (chunk: Buffer) => this.deliver(chunk));
      socket.on("close", () => this.finish());
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const socket = this.socket;
    if (!socket || this.closed) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve, reject) => {
      socket.write(this.frame(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    this.finish();
  }
}
