import type { ServerDefinition } from "@pi-mcp-adapter/core";

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
