/**
 * The servers of a config as a runtime runs them: each with the global
 * settings it inherits (a server's own value wins). The startup snapshot
 * and the runtime both use it, so the metadata cache — keyed by the hash
 * of what a server runs — is written and read under the same key.
 */
import type { ConfiguredServer, ResolvedConfig } from "@pi-mcp-adapter/config";

export function effectiveServers(config: ResolvedConfig): ConfiguredServer[] {
  const timeout = config.settings.requestTimeoutMs;
  return config.servers.map((server) =>
    server.requestTimeoutMs === undefined && timeout !== undefined
      ? { ...server, requestTimeoutMs: timeout }
      : server,
  );
}
