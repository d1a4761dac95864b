/**
 * One connection to the daemon's socket and its control handshake: connect,
 * present the token and the hello, read the one-line reply. What follows the
 * reply on an attach connection is handed on untouched.
 */
import { readFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import type { DaemonPaths } from "../daemon-paths.js";
import { DaemonError } from "../errors.js";
import { firstLineReader } from "../line-reader.js";
import { type Hello, type HelloReply, WIRE_VERSION } from "../wire.js";

/** Distributes `Omit` over the hello union (each op keeps its own members). */
type HelloBody = Hello extends infer H
  ? H extends Hello
    ? Omit<H, "pi-mcp-daemon" | "token">
    : never
  : never;

export interface HandshakeResult {
  socket: Socket;
  reply: HelloReply;
  /** Bytes that arrived after the reply line (the start of the MCP stream). */
  rest: Buffer;
}

/** Whether a connect error means "no daemon is running here" (as opposed to a real failure). */
export function isNoDaemon(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ECONNREFUSED";
}

/** Connects to the socket; rejects with the socket error (see `isNoDaemon`). */
export function connectSocket(socketPath: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** Sends the hello on a connected socket and reads the reply line. */
export async function handshake(
  socket: Socket,
  paths: DaemonPaths,
  body: HelloBody,
  timeoutMs = 10_000,
): Promise<HandshakeResult> {
  const token = (await readFile(paths.token, "utf8").catch(() => "")).trim();
  const hello = { "pi-mcp-daemon": WIRE_VERSION, token, ...body };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        fail(
          new DaemonError(
            "daemon_closed",
            `The daemon at ${paths.socket} did not answer within ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
    const fail = (error: Error) => {
      cleanup();
      socket.destroy();
      reject(error);
    };
    const notJson = () =>
      fail(
        new DaemonError("daemon_refused", `The daemon at ${paths.socket} answered with something not JSON`),
      );
    const onData = firstLineReader((line, rest) => {
      cleanup();
      let reply: HelloReply;
      try {
        reply = JSON.parse(line) as HelloReply;
      } catch {
        return notJson();
      }
      resolve({ socket, reply, rest });
    }, notJson);
    const onClose = () =>
      fail(
        new DaemonError(
          "daemon_closed",
          `The daemon at ${paths.socket} closed the connection before answering`,
        ),
      );
    const onError = (error: Error) =>
      fail(
        new DaemonError(
          "daemon_closed",
          `The connection to the daemon at ${paths.socket} failed: ${error.message}`,
        ),
      );
    const cleanup = () => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      socket.off("error", onError);
    };
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.once("error", onError);
    socket.write(`${JSON.stringify(hello)}\n`);
  });
}
