/**
 * HTTP endpoints that fail the way real misconfigured or broken servers do,
 * for transport fault tests. Every request is recorded so a test can check
 * what the client tried (e.g. that it never fell back to SSE).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type HttpFaultMode =
  /** 200 with an HTML page, like a web app at the wrong URL. */
  | "html"
  /** 500 on every request. */
  | "status-500"
  /** 401 on every request. */
  | "status-401"
  /** 404 on every request. */
  | "status-404"
  /** A working MCP endpoint whose `tools/call` answer is an SSE stream cut mid-event. */
  | "sse-drop";

export interface FaultHttpServer extends AsyncDisposable {
  url: string;
  requests: { method: string; path: string; accept: string }[];
  close(): Promise<void>;
}

export async function serveHttpFault(mode: HttpFaultMode): Promise<FaultHttpServer> {
  const requests: FaultHttpServer["requests"] = [];
  const http = createServer((req, res) => {
    requests.push({
      method: req.method ?? "",
      path: req.url ?? "",
      accept: String(req.headers.accept ?? ""),
    });
    void answer(mode, req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, requests, close, [Symbol.asyncDispose]: close };
}

async function answer(mode: HttpFaultMode, req: IncomingMessage, res: ServerResponse): Promise<void> {
  switch (mode) {
    case "html":
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><html><body>Welcome</body></html>");
      return;
    case "status-500":
      res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
      return;
    case "status-401":
      res.writeHead(401, { "content-type": "text/plain" }).end("unauthorized");
      return;
    case "status-404":
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    case "sse-drop":
      return answerSseDrop(req, res);
  }
}

async function answerSseDrop(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  let body = "";
  for await (const chunk of req) body += chunk;
  const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
  const reply = (result: unknown) =>
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  switch (message.method) {
    case "initialize":
      reply({
        protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "sse-drop", version: "1.0.0" },
      });
      return;
    case "tools/list":
      reply({ tools: [{ name: "drop", inputSchema: { type: "object" } }] });
      return;
    case "ping":
      reply({});
      return;
    case "tools/call":
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"res`);
      setTimeout(() => res.destroy(), 20);
      return;
    default:
      res.writeHead(202).end();
  }
}
