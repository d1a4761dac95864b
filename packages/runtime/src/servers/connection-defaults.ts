/**
 * The global settings a server inherits for its connections — request
 * timeouts, MCP task handling and whether a stdio server is shared with other
 * sessions (`shareServers`) — applied when it connects (a server's own value
 * wins). They stay out of the configured definition, so its hash (the
 * metadata cache key, the "did this server change?" test) is the same for
 * the startup snapshot and the runtime, and a changed global applies to the
 * next connection.
 */
import type { Settings } from "@pi-mcp-adapter/config";
import type { ServerDefinition } from "@pi-mcp-adapter/core";

type ConnectionSettings = Pick<
  Settings,
  "requestTimeoutMs" | "maxTotalTimeoutMs" | "tasks" | "taskTimeoutMs" | "shareServers"
>;

export function withConnectionDefaults<D extends ServerDefinition>(
  definition: D,
  settings: ConnectionSettings,
): D {
  const {
    requestTimeoutMs = settings.requestTimeoutMs,
    maxTotalTimeoutMs = settings.maxTotalTimeoutMs,
    tasks = settings.tasks,
    taskTimeoutMs = settings.taskTimeoutMs,
    shared = definition.transport === "stdio" ? settings.shareServers : undefined,
  } = definition;
  return {
    ...definition,
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    ...(maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs } : {}),
    ...(tasks !== undefined ? { tasks } : {}),
    ...(taskTimeoutMs !== undefined ? { taskTimeoutMs } : {}),
    ...(shared !== undefined ? { shared } : {}),
  };
}
