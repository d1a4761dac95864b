/**
 * In-process MCP fixture servers: a real SDK server with the tools a test
 * gives it, reachable over an in-memory transport or Streamable HTTP on port 0.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

export interface FixtureTool {
  name: string;
  description?: string;
  inputSchema?: Tool["inputSchema"];
  annotations?: Tool["annotations"];
  /**
   * Answers a call. Throwing produces a JSON-RPC error, as a crashing handler
   * would. `extra` is the SDK's request context: send progress or requests
   * to the client related to this call (`extra.sendNotification`,
   * `extra.sendRequest`), see `extra.signal` abort when the client cancels.
   */
  handler?: (args: Record<string, unknown>, extra: ToolCallExtra) => CallToolResult | Promise<CallToolResult>;
}

/** The SDK's context of one `tools/call`, and the call's progress token (if the client sent one). */
export type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification> & {
  progressToken: string | number | undefined;
};

export interface FixtureServerOptions {
  name?: string;
  tools: FixtureTool[];
  /** Serve `tools/list` in pages of this size, with cursors. Default: one page. */
  pageSize?: number;
  instructions?: string;
  /** The server's `serverInfo` title and description (what it says about itself besides its name). */
  title?: string;
  description?: string;
}

const EMPTY_OBJECT_SCHEMA: Tool["inputSchema"] = { type: "object", properties: {} };

/** A real MCP SDK server offering the given tools. */
export function createFixtureServer(options: FixtureServerOptions): Server {
  const server = new Server(
    {
      name: options.name ?? "fixture",
      version: "1.0.0",
      ...(options.title ? { title: options.title } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    { capabilities: { tools: {} }, instructions: options.instructions },
  );
  const tools: Tool[] = options.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema ?? EMPTY_OBJECT_SCHEMA,
    annotations: t.annotations,
  }));
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const pageSize = options.pageSize ?? tools.length;
    const start = request.params?.cursor ? Number(request.params.cursor) : 0;
    const end = start + Math.max(1, pageSize);
    return { tools: tools.slice(start, end), nextCursor: end < tools.length ? String(end) : undefined };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = options.tools.find((t) => t.name === request.params.name);
    if (!tool)
      return { isError: true, content: [{ type: "text", text: `Unknown tool ${request.params.name}` }] };
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (!tool.handler) return { content: [{ type: "text", text: JSON.stringify(args) }] };
    return tool.handler(args, { ...extra, progressToken: request.params._meta?.progressToken });
  });
  return server;
}

/** Connects a fixture server to an in-memory pair and returns the client side. */
export async function connectInMemory(server: Server): Promise<InMemoryTransport> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return clientSide;
}

export interface HttpFixture extends AsyncDisposable {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves fixture servers over Streamable HTTP on 127.0.0.1, port 0, at `/mcp`.
 * Each session gets its own server from `makeServer`.
 */
export async function serveStreamableHttp(makeServer: () => Server): Promise<HttpFixture> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!req.url?.startsWith("/mcp")) {
      res.writeHead(404).end("not found");
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) {
      await existing.handleRequest(req, res);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await makeServer().connect(transport);
    await transport.handleRequest(req, res);
  }
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, close, [Symbol.asyncDispose]: close };
}
