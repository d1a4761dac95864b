/**
 * The few operations a `ServerConnection` needs from an SDK client, so one
 * connection class serves both SDK v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/client`, the 2026-07-28 revision).
 */
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export type RequestOptions = { signal?: AbortSignal; timeout: number };
type Page = { nextCursor?: string };

export interface ProtocolClient {
  /** Protocol revision in use, e.g. `2025-11-25` or `2026-07-28`. */
  protocolVersion(): string | undefined;
  serverVersion(): { name: string; version: string } | undefined;
  instructions(): string | undefined;
  ping(o: RequestOptions): Promise<unknown>;
  listTools(cursor: string | undefined, o: RequestOptions): Promise<Page & { tools: unknown[] }>;
  listResources(cursor: string | undefined, o: RequestOptions): Promise<Page & { resources: unknown[] }>;
  listResourceTemplates(
    cursor: string | undefined,
    o: RequestOptions,
  ): Promise<Page & { resourceTemplates: unknown[] }>;
  listPrompts(cursor: string | undefined, o: RequestOptions): Promise<Page & { prompts: unknown[] }>;
  readResource(uri: string, o: RequestOptions): Promise<unknown>;
  getPrompt(name: string, args: Record<string, string>, o: RequestOptions): Promise<unknown>;
  callTool(name: string, args: Record<string, unknown>, o: RequestOptions): Promise<unknown>;
  /** Registers the one close handler. */
  onClose(handler: () => void): void;
  close(): Promise<void>;
  /** How an SDK error maps onto ours. */
  classify(error: unknown): "timeout" | "closed" | undefined;
}

const cursorParams = (cursor: string | undefined) => (cursor ? { cursor } : undefined);

export function v1ProtocolClient(client: V1Client): ProtocolClient {
  return {
    protocolVersion: () => (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion,
    serverVersion: () => {
      const info = client.getServerVersion();
      return info ? { name: info.name, version: info.version } : undefined;
    },
    instructions: () => client.getInstructions(),
    ping: (o) => client.ping(o),
    listTools: (cursor, o) => client.listTools(cursorParams(cursor), o),
    listResources: (cursor, o) => client.listResources(cursorParams(cursor), o),
    listResourceTemplates: (cursor, o) => client.listResourceTemplates(cursorParams(cursor), o),
    listPrompts: (cursor, o) => client.listPrompts(cursorParams(cursor), o),
    readResource: (uri, o) => client.readResource({ uri }, o),
    getPrompt: (name, args, o) => client.getPrompt({ name, arguments: args }, o),
    callTool: (name, args, o) => client.callTool({ name, arguments: args }, undefined, o),
    onClose: (handler) => {
      client.onclose = handler;
    },
    close: () => client.close(),
    classify: (error) => {
      if (!(error instanceof McpError)) return undefined;
      if (error.code === ErrorCode.RequestTimeout) return "timeout";
      if (error.code === ErrorCode.ConnectionClosed) return "closed";
      return undefined;
    },
  };
}
