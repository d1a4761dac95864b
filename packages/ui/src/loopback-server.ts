/**
 * The HTTP server app windows load from: bound to 127.0.0.1 on a random
 * port, answering only loopback peers whose Host header names this server
 * (no DNS rebinding), and only paths that start with a secret: the
 * per-viewer token for host pages and their relay endpoints, a per-window
 * key for each app document (so an app never sees the token). Anything else
 * is 403.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A route's answer to one request; it writes the response itself. */
export type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  rest: string[],
) => void | Promise<void>;

/** Largest request body accepted (a JSON-RPC message from an app). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export function randomKey(): string {
  return randomBytes(24).toString("base64url");
}

export class LoopbackServer {
  /** The secret every host-page URL starts with. */
  readonly token = randomKey();
  private server: Server | undefined;
  private port = 0;
  private readonly routes = new Map<string, RouteHandler>();

  /** `http://127.0.0.1:<port>`; after `start`. */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Serves `/<key>/...` with `handler` (`rest`: the path segments after the key). */
  route(key: string, handler: RouteHandler): void {
    this.routes.set(key, handler);
  }

  unroute(key: string): void {
    this.routes.delete(key);
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.routes.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      if (!isLoopback(request.socket.remoteAddress)) return refuse(response, "loopback connections only");
      const host = request.headers.host ?? "";
      if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) {
        return refuse(response, "unexpected Host header");
      }
      const path = new URL(request.url ?? "/", this.origin).pathname;
      const [key = "", ...rest] = path.split("/").filter(Boolean);
      const handler = this.routes.get(key);
      if (!handler) return refuse(response, "missing or wrong token");
      await handler(request, response, rest.map(decodeURIComponent));
    } catch {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end("Internal error");
    }
  }
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || /^(::ffff:)?127\./.test(address);
}

function refuse(response: ServerResponse, why: string): void {
  response.writeHead(403, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  response.end(`Forbidden: ${why}`);
}

/** The request's JSON body (at most `MAX_BODY_BYTES`). */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}
