/**
 * SDK Streamable HTTP servers at `/mcp` on 127.0.0.1, one SDK server per
 * session (`makeServer`), in the variants transport tests need: resumable
 * (every SSE event kept in an in-memory event store, so a client whose
 * response stream broke can reconnect with `Last-Event-ID` and receive the
 * rest) and over HTTPS with a given certificate.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { HttpFixture } from "./fixture-server.js";

export interface ResumableHttpFixture extends HttpFixture {
  /** The `Last-Event-ID`s clients resumed from, in order. */
  resumedFrom: string[];
}

export interface SdkHttpOptions {
  /** Keep events for resumption, asking clients to reconnect after `retryIntervalMs` (default 100). */
  resumable?: { retryIntervalMs?: number };
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  /** Listen on this port (e.g. where an earlier one ran: a server restarted at the same URL); default a free one. */
  port?: number;
}

/** Every event of every stream, in the order sent; an event's id is its position. */
class MemoryEventStore implements EventStore {
  private readonly events: { streamId: string; message: JSONRPCMessage }[] = [];

  constructor(private readonly resumedFrom: string[]) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.events.push({ streamId, message });
    return String(this.events.length - 1);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    this.resumedFrom.push(lastEventId);
    const last = Number(lastEventId);
    const streamId = this.events[last]?.streamId ?? "";
    for (let id = last + 1; id < this.events.length; id++) {
      const event = this.events[id];
      if (event?.streamId === streamId) await send(String(id), event.message);
    }
    return streamId;
  }
}

/** Serves `makeServer` with resumable streams; `retryIntervalMs` is the reconnect delay it asks clients for. */
export function serveResumableHttp(
  makeServer: () => Server,
  options: { retryIntervalMs?: number } = {},
): Promise<ResumableHttpFixture> {
  return serveSdkHttp(makeServer, { resumable: options });
}

/** Serves `makeServer` over HTTPS with `tls`; the URL is `https://127.0.0.1:<port>/mcp`. */
export function serveStreamableHttps(
  makeServer: () => Server,
  tls: { key: string; cert: string },
): Promise<HttpFixture> {
  return serveSdkHttp(makeServer, { tls });
}

/** Serves `makeServer` over Streamable HTTP as `options` say (the helpers above are the usual variants). */
export async function serveSdkHttp(
  makeServer: () => Server,
  options: SdkHttpOptions = {},
): Promise<ResumableHttpFixture & { port: number }> {
  const resumedFrom: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  };
  const http = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(options.resumable
        ? {
            eventStore: new MemoryEventStore(resumedFrom),
            retryInterval: options.resumable.retryIntervalMs ?? 100,
          }
        : {}),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    await makeServer().connect(transport);
    await transport.handleRequest(req, res);
  }
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  const scheme = options.tls ? "https" : "http";
  return {
    url: `${scheme}://127.0.0.1:${port}/mcp`,
    port,
    resumedFrom,
    close,
    [Symbol.asyncDispose]: close,
  };
}
