/**
 * What each MCP server costs in every model request as the startup snapshot
 * (config + metadata cache) gives it, before any server runs: the same
 * estimate as a running session's (`tools/token-cost.ts`), over the
 * snapshot's servers and the direct-tool plan it implies.
 */
import { directToolSettings, planDirectTools } from "../catalog/direct-tools.js";
import { type ServerTokenCost, serverTokenCosts } from "../tools/token-cost.js";
import { type StartupSnapshot, snapshotAutoDirect } from "./startup-snapshot.js";

/** The costs as the startup snapshot (config + metadata cache) gives them; starts no server. */
export function snapshotTokenCosts(snapshot: StartupSnapshot): ServerTokenCost[] {
  const settings = directToolSettings(snapshot.config.settings);
  const inputs = snapshot.servers.map((s) => ({ definition: s.server, metadata: s.metadata }));
  const plan = planDirectTools(inputs, settings, [], snapshotAutoDirect(snapshot));
  return serverTokenCosts(
    snapshot.servers.map((s) => ({ ...s, tools: s.metadata })),
    plan.tools,
    { roster: settings.disableProxyTool !== true },
  );
}
