import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { type ConnectOptions, connectServer } from "@pi-mcp-adapter/transport";
import type { Connect } from "../src/servers/server-set.js";

/** A lazy legacy stdio definition for tests whose `connect` ignores the command. */
export function stdioDefinition(name: string, extra: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    name,
    transport: "stdio",
    command: "fixture",
    lifecycle: "lazy",
    protocol: "legacy",
    source: { file: "/project/.mcp.json", key: "mcpServers" },
    ...extra,
  };
}

/** The transport's own connect with `options`, for tests against real servers. */
export function connectWith(options: ConnectOptions = {}): Connect {
  return (definition, signal) => connectServer(definition, options, signal);
}

/** server-everything on stdio (a real server with tools, resources, templates and prompts), lazy, legacy. */
export const everythingStdio: ServerDefinition = {
  name: "everything",
  transport: "stdio",
  command: process.execPath,
  args: [serverEverythingPath],
  lifecycle: "lazy",
  protocol: "legacy",
  source: { file: "/p/.mcp.json", key: "mcpServers.everything" },
};
