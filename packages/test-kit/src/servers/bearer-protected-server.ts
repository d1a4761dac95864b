/**
 * A Streamable HTTP MCP endpoint (stateless, 127.0.0.1, port 0, `/mcp`) that
 * accepts only `Authorization: Bearer <token>` where the token is what
 * `tokenFile` holds at the moment of the request — so a test rotates the
 * credential by rewriting that file, as a cloud CLI's token rotates. Every
 * other request gets 401. What `/mcp` received is recorded.
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { answerStatelessMcp } from "./stateless-mcp-answer.js";

export interface BearerProtectedMcp extends AsyncDisposable {
  url: string;
  /** Each request's method, `Authorization` header and the status it got, in order. */
  requests: Array<{ method: string; authorization: string; status: number }>;
  close(): Promise<void>;
}

export async function serveBearerProtectedMcp(options: {
  tokenFile: string;
  makeServer: () => Server;
}): Promise<BearerProtectedMcp> {
  const requests: BearerProtectedMcp["requests"] = [];
  const http = createServer((req, res) => {
    void (async () => {
      if (!req.url?.startsWith("/mcp")) return void res.writeHead(404).end("not found");
      const authorization = req.headers.authorization ?? "";
      const current = (await readFile(options.tokenFile, "utf8")).trim();
      if (authorization !== `Bearer ${current}`) {
        requests.push({ method: req.method ?? "", authorization, status: 401 });
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_token"}');
        return;
      }
      requests.push({ method: req.method ?? "", authorization, status: 200 });
      await answerStatelessMcp(options.makeServer, req, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, requests, close, [Symbol.asyncDispose]: close };
}
