/**
 * The status channels' names and shapes: ours (`MCP_STATUS_EVENT`, whose last
 * snapshot is the empty one), and snapshots in the reference adapter's
 * documented shape, for listeners written for its channel
 * `pi-mcp-adapter/status/v1`: `version: 1`,
 * the six documented server states only (`connecting` reads as
 * `not-connected`), and each server's `directToolCount`, which only the host
 * knows (it registers the direct tools).
 */
import { type McpStatusSnapshot, statusSnapshot } from "@pi-mcp-adapter/runtime/startup";

/** The `pi.events` channel status snapshots are emitted on. */
export const MCP_STATUS_EVENT = "pi-mcp-adapter:status";

/** The snapshot `MCP_STATUS_EVENT` carries last, when the adapter shuts down: no servers, every count zero. */
export function emptyStatusSnapshot(): McpStatusSnapshot {
  return statusSnapshot([]);
}

/** The reference adapter's status channel; hosts emit `McpStatusSnapshotV1` on it beside `MCP_STATUS_EVENT`. */
export const MCP_STATUS_V1_EVENT = "pi-mcp-adapter/status/v1";

/** A server's state as the v1 contract names it. */
export type McpServerStateV1 =
  | "connected"
  | "cached"
  | "failed"
  | "needs-auth"
  | "not-connected"
  | "disabled";

export interface McpServerStatusV1 {
  name: string;
  status: McpServerStateV1;
  toolCount: number;
  /** Tools of the server registered as tools of their own (direct tools) now. */
  directToolCount: number;
  resourceCount?: number;
  failedAgoSeconds?: number;
  disabled: boolean;
}

export interface McpStatusSnapshotV1 {
  version: 1;
  servers: McpServerStatusV1[];
  totalTools: number;
  totalResources: number;
  connectedCount: number;
  disabledCount: number;
}

/** The v1 form of `snapshot`; `directToolCount(server)` says how many direct tools the host registered for it. */
export function statusSnapshotV1(
  snapshot: McpStatusSnapshot,
  directToolCount: (server: string) => number,
): McpStatusSnapshotV1 {
  return {
    version: 1,
    servers: snapshot.servers.map((s) => ({
      name: s.name,
      status: s.status === "connecting" ? "not-connected" : s.status,
      toolCount: s.toolCount,
      directToolCount: directToolCount(s.name),
      ...(s.resourceCount !== undefined ? { resourceCount: s.resourceCount } : {}),
      ...(s.failedAgoSeconds !== undefined ? { failedAgoSeconds: s.failedAgoSeconds } : {}),
      disabled: s.disabled,
    })),
    totalTools: snapshot.totalTools,
    totalResources: snapshot.totalResources,
    connectedCount: snapshot.connectedCount,
    disabledCount: snapshot.disabledCount,
  };
}
