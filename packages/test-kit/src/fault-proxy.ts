/**
 * A hostile HTTP proxy in front of a real Streamable HTTP MCP server: it
 * forwards everything (SSE streams included, as they come) unless a fault is
 * queued for the JSON-RPC method of a POST — answer with a status (408, 429
 * with `Retry-After`, 503 …), drop the connection without an answer, or cut
 * the response stream right after a progress event. Every request is
 * recorded, so a test can check what the client tried and how often.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ProxyFault =
  /** Answer with this status (and headers) instead of forwarding. */
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Close the connection without answering. */
  | { drop: true }
  /** Forward, but cut the response stream once an event with a progress notification went through. */
  | { cutAfterProgress: true };

export interface ProxiedRequest {
  /** HTTP method. */
  http: string;
  /** The JSON-RPC method of a POST, if it carried one. */
  rpc?: string;
  /** The `Last-Event-ID` a GET resumed from. */
  lastEventId?: string;
  /** What the client got: a status, "dropped" or "cut". */
  outcome: number | "dropped" | "cut";
}

export interface FaultProxy extends AsyncDisposable {
  /** The proxied MCP endpoint (same path as upstream). */
  url: string;
  requests: ProxiedRequest[];
  /** Queues faults for the next POSTs of `rpcMethod`, one per request, in order. */
  fail(rpcMethod: string, ...faults: ProxyFault[]): void;
  close(): Promise<void>;
}

/** Headers that describe one hop, not the message. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  const upstream = new URL(upstreamUrl);
  const queued = new Map<string, ProxyFault[]>();
  const requests: ProxiedRequest[] = [];

  const http = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end("proxy error");
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of req) body += chunk;
    const rpc = req.method === "POST" ? rpcMethod(body) : undefined;
    const record: ProxiedRequest = { http: req.method ?? "", outcome: 0 };
    if (rpc) record.rpc = rpc;
    const lastEventId = req.headers["last-event-id"];
    if (typeof lastEventId === "string") record.lastEventId = lastEventId;
    requests.push(record);
    const fault = rpc ? queued.get(rpc)?.shift() : undefined;
    if (fault && "status" in fault) {
      record.outcome = fault.status;
      res.writeHead(fault.status, fault.headers).end(fault.body ?? `fault ${fault.status}`);
      return;
    }
    if (fault && "drop" in fault) {
      record.outcome = "dropped";
      req.socket.destroy();
      return;
    }
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (!HOP_HEADERS.has(key) && typeof value === "string") headers.set(key, value);
    }
    const answer = await fetch(new URL(req.url ?? "/", upstream), {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
    });
    record.outcome = answer.status;
    const out: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      if (!HOP_HEADERS.has(key)) out[key] = value;
    });
    res.writeHead(answer.status, out);
    if (!answer.body) {
      res.end();
      return;
    }
    const cut = fault !== undefined && "cutAfterProgress" in fault;
    const decoder = new TextDecoder();
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      if (cut && decoder.decode(chunk, { stream: true }).includes("notifications/progress")) {
        // The client gets everything up to the progress event, then the connection breaks.
        await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
        record.outcome = "cut";
        res.socket?.destroy();
        return;
      }
      res.write(chunk);
    }
    res.end();
  }

  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests,
    fail(method, ...faults) {
      queued.set(method, [...(queued.get(method) ?? []), ...faults]);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function rpcMethod(body: string): string | undefined {
  try {
    const message = JSON.parse(body) as { method?: unknown };
    return typeof message.method === "string" ? message.method : undefined;
  } catch {
    return undefined;
  }
}
