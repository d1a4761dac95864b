/**
 * Where a runtime's shared servers live: the per-user daemon in the agent
 * dir, and how long a shared server outlives its last session — the
 * `idleTimeout` setting; `0` ("never disconnect") cannot apply to a process
 * no session uses, so it gets the daemon's default.
 */
import type { SharingOptions } from "@pi-mcp-adapter/transport";

export function sharingOptions(agentDir: string, idleTimeoutMin: number | undefined): SharingOptions {
  return idleTimeoutMin ? { agentDir, idleTimeoutMs: idleTimeoutMin * 60_000 } : { agentDir };
}
