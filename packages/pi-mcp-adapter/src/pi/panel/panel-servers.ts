/**
 * The panel's facts about each server (state, tools, direct mode, cost,
 * sharing, MCP skills), gathered from what the runtime knows: never connects.
 */
import { refusedSkillNote } from "@pi-mcp-adapter/catalog";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { directSelection, type ServerTokenCost, sharedLabel } from "@pi-mcp-adapter/runtime/startup";
import type { PanelServer } from "./panel-model.js";

/** The panel's facts about each server, from what the runtime knows (never connects). */
export function panelServers(
  runtime: AdapterRuntime,
  previous: readonly PanelServer[] = [],
  costs?: ReadonlyMap<string, ServerTokenCost>,
  skills?: ReadonlyMap<string, readonly string[]>,
): PanelServer[] {
  // A server following `directTools: "auto"` shows what the session decided for it.
  const auto = runtime.catalog.directTools().auto;
  return runtime.listings.summaries().map((s) => {
    const definition = runtime.servers.definition(s.name);
    const selection = definition ? directSelection(definition, runtime.catalog.direct, auto) : undefined;
    const known = previous.find((p) => p.name === s.name);
    const server: PanelServer = {
      name: s.name,
      state: s.state,
      toolCount: s.toolCount ?? 0,
      directTools: selection === undefined ? false : selection.names === true ? true : [...selection.names],
      disabled: definition?.disabled ?? s.state === "disabled",
      tasks: runtime.tasks.of(s.name).length,
    };
    if (s.error) server.error = s.error;
    if (s.retryAt !== undefined) server.retryAt = s.retryAt;
    const shared = sharedLabel(s.shared);
    if (shared) server.shared = shared;
    const changed = runtime.pins.report().find((c) => c.server === s.name)?.changes.length;
    if (changed) server.changedTools = changed;
    if (known?.tools) server.tools = known.tools;
    if (known?.listError) server.listError = known.listError;
    const cost = costs?.get(s.name);
    if (cost) server.cost = { perRequest: cost.perRequest, allDirect: cost.allDirect };
    const offered = skills?.get(s.name);
    if (offered?.length) server.skills = offered;
    if (s.refusedSkills?.length)
      server.refusedSkills = s.refusedSkills.map((r) => refusedSkillNote(s.name, r));
    return server;
  });
}

/** The MCP skills each server offers, by the names `/skill:` takes (none when they cannot be read). */
export async function skillsByServer(runtime: AdapterRuntime): Promise<Map<string, string[]>> {
  const skills = await runtime.catalog.knownSkills().catch(() => []);
  const byServer = new Map<string, string[]>();
  for (const skill of skills) byServer.set(skill.server, [...(byServer.get(skill.server) ?? []), skill.name]);
  return byServer;
}
