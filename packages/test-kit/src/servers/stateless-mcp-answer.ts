/**
 * Answers one HTTP request as a stateless Streamable HTTP MCP endpoint: a
 * fresh server from `makeServer` and a transport without sessions, both
 * closed when the response ends. For fixture servers that put a check (a
 * bearer token, OAuth) in front of plain MCP.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export async function answerStatelessMcp(
  makeServer: () => Server,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  const server = makeServer();
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}
