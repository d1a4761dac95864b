/**
 * The servers of a config as a runtime runs them: each with the global
 * timeouts it inherits (a server's own value wins). The startup snapshot
 * and the runtime both use it, so the metadata cache — keyed by the hash
 * of what a server runs — is written and read under the same key.
 */
import type { ConfiguredServer, ResolvedConfig } from "@pi-mcp-adapter/config";

export function effectiveServers(config: ResolvedConfig): ConfiguredServer[] {
  const { requestTimeoutMs, maxTotalTimeoutMs } = config.settings;
  return config.servers.map((server) => {
    const inherited = {
      ...(server.requestTimeoutMs === undefined && requestTimeoutMs !== undefined
        ? { requestTimeoutMs }
        : {}),
      ...(server.maxTotalTimeoutMs === undefined && maxTotalTimeoutMs !== undefined
        ? { maxTotalTimeoutMs }
        : {}),
    };
    return Object.keys(inherited).length ? { ...server, ...inherited } : server;
  });
}
