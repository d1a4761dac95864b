/** The MCP revision negotiated through `server/discover`, and the per-process cache of verdicts. */
import type { PriorDiscovery } from "@modelcontextprotocol/client";

export const MODERN_REVISION = "2026-07-28";

/** Era verdicts by server, so `auto` probes a stdio server once per process. */
export type EraCache = Map<string, PriorDiscovery>;
