/**
 * The HTTP server app windows load from: bound to 127.0.0.1 on a random
 * port, answering only loopback peers whose Host header names this server
 * (no DNS rebinding), and only paths that start with a secret or carry the
 * session cookie. A browser is handed a one-time entry URL (`/enter/<code>`),
 * never the long-lived token: command lines are readable by every local user
 * (`/proc/<pid>/cmdline`). The first load trades the code for an HttpOnly,
 * SameSite=Strict cookie holding the token and sends the browser on to a
 * clean URL with a page of its own, not a redirect: the browser arrives from
 * a local launch page (launch-page.ts), and a redirect would keep that
 * cross-site start, on which a Strict cookie is not sent. The same entry URL
 * again is refused. App documents are served under their own
 * per-window key (so an app never sees the token). Anything else is 403.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { forwardPage } from "./launch-page.js";

/** A route's answer to one request; it writes the response itself. */
export type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  rest: string[],
) => void | Promise<void>;

/** How long an entry URL may wait for the browser to load it. */
export const ENTRY_TTL_MS = 120_000;

/** Largest request body accepted (a JSON-RPC message from an app). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export function randomKey(): string {
  return randomBytes(24).toString("base64url");
}

interface Route {
  handler: RouteHandler;
  /** Only for a browser holding the session cookie. */
  session: boolean;
}

export class LoopbackServer {
  /** The session secret: it lives in the browser's cookie, never in a URL. */
  private readonly token = randomKey();
  private server: Server | undefined;
  private port = 0;
  private readonly routes = new Map<string, Route>();
  /** Unused entry codes → where they lead and until when. */
  private readonly entries = new Map<string, { target: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** `http://127.0.0.1:<port>`; after `start`. */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The cookie's name: one per port, so two viewers on one machine keep their own. */
  get cookieName(): string {
    return `pi_mcp_ui_${this.port}`;
  }

  /**
   * Serves `/<key>/...` with `handler` (`rest`: the path segments after the
   * key). With `session`, only to a browser that came in through `entryUrl`;
   * without, the key itself is the secret.
   */
  route(key: string, handler: RouteHandler, options: { session?: boolean } = {}): void {
    this.routes.set(key, { handler, session: options.session === true });
  }

  unroute(key: string): void {
    this.routes.delete(key);
  }

  /**
   * A URL for a browser that works once and within `ENTRY_TTL_MS`: loading it
   * sets the session cookie and sends the browser on to `target` (a path on this server).
   */
  entryUrl(target: string): string {
    const now = this.now();
    for (const [code, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(code);
    const code = randomKey();
    this.entries.set(code, { target, expiresAt: now + ENTRY_TTL_MS });
    return `${this.origin}/enter/${code}`;
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
    this.entries.clear();
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
      if (key === "enter" && rest.length === 1) return this.enter(response, rest[0] as string);
      const route = this.routes.get(key);
      if (!route) return refuse(response, "missing or wrong token");
      if (route.session && !this.hasSessionCookie(request)) {
        return refuse(response, "missing or wrong session cookie (open the window from its tool call)");
      }
      await route.handler(request, response, rest.map(decodeURIComponent));
    } catch {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end("Internal error");
    }
  }

  private enter(response: ServerResponse, code: string): void {
    const entry = this.entries.get(code);
    this.entries.delete(code);
    if (!entry || entry.expiresAt <= this.now()) {
      refuse(response, "this link was used already or has expired");
      return;
    }
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'",
      "set-cookie": `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
    response.end(forwardPage(entry.target));
  }

  private hasSessionCookie(request: IncomingMessage): boolean {
    const prefix = `${this.cookieName}=`;
    const sent = (request.headers.cookie ?? "")
      .split(";")
      .map((part) => part.trim())
      .find((part) => part.startsWith(prefix))
      ?.slice(prefix.length);
    if (sent === undefined) return false;
    const a = Buffer.from(sent);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
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
