/**
 * Target 1: the `mcp` proxy tool's definition (name + description + JSON of
 * parameters) in tokens (chars/4), read from what the real extension
 * registers with 0, 1 and all catalog servers configured and cached; it
 * grows with the server roster in its description, up to the roster's
 * budget. Baseline: declaring every catalog tool directly.
 */
import { createShellHome, loadCatalogServers, startedServers } from "./shell-home.js";
import { definitionText, headlessContext, RecordingPi, tokens } from "./shell-recording-pi.js";
import { liveChildren, spawnCount } from "./shell-spawn-counter.js";

export interface DefinitionSizeRow {
  servers: number;
  tools: number;
  registeredTools: number;
  proxyTokens: number;
  /** Hits of a search over the cached catalog, run through the registered tool. */
  searchTotal: number;
}

export interface DefinitionSizeResult {
  rows: DefinitionSizeRow[];
  directTokens: number;
  /** Child processes started while sessions loaded and searched the cached catalogs. */
  spawned: number;
  description: string;
}

export async function measureDefinitionSize(): Promise<DefinitionSizeResult> {
  const { default: extension } = await import("pi-mcp-adapter/extension");
  const all = loadCatalogServers();
  const rows: DefinitionSizeRow[] = [];
  const spawnedBefore = spawnCount();
  const childrenBefore = liveChildren().length;
  let started = 0;
  let description = "";
  for (const servers of [[], all.filter((s) => s.name === "github"), all]) {
    const home = await createShellHome(servers);
    try {
      const pi = new RecordingPi();
      await extension(pi as never);
      const ctx = headlessContext(home.cwd);
      await pi.fire("session_start", ctx);
      const proxy = pi.tools[0]!;
      // Loads the runtime from config and the warm cache; must not connect.
      const search = await proxy.execute("bench", { search: "create issue" }, undefined, undefined, ctx);
      await pi.fire("session_shutdown", ctx);
      started += startedServers(home);
      description = proxy.description;
      rows.push({
        servers: servers.length,
        tools: servers.reduce((n, s) => n + s.tools.length, 0),
        registeredTools: pi.tools.length,
        proxyTokens: tokens(pi.tools.map(definitionText).join("")),
        searchTotal: Number(search.details?.total ?? 0),
      });
    } finally {
      home.close();
    }
  }
  const directTokens = tokens(
    all
      .flatMap((s) => s.tools)
      .map((t) =>
        definitionText({ name: t.name, description: t.description ?? "", parameters: t.inputSchema }),
      )
      .join(""),
  );
  const spawned = Math.max(spawnCount() - spawnedBefore, started, liveChildren().length - childrenBefore);
  return { rows, directTokens, spawned, description };
}

export function formatDefinitionSize(r: DefinitionSizeResult): string {
  const last = r.rows.at(-1)!;
  const first = r.rows[0]!;
  return [
    "1. Proxy tool definition (name + description + parameters JSON, tokens = chars/4):",
    "   servers  tools  registered tools  proxy tokens  search hits (cached)",
    ...r.rows.map(
      (row) =>
        `   ${String(row.servers).padStart(7)}  ${String(row.tools).padStart(5)}  ${String(row.registeredTools).padStart(16)}  ${String(row.proxyTokens).padStart(12)}  ${String(row.searchTotal).padStart(20)}`,
    ),
    `   baseline, all ${last.tools} tools declared directly: ${r.directTokens.toLocaleString("en")} tokens`,
    `   ratio proxy/direct: ${(last.proxyTokens / r.directTokens).toFixed(5)} (${(r.directTokens / last.proxyTokens).toFixed(0)}x smaller)`,
    `   the server roster adds ${last.proxyTokens - first.proxyTokens} tokens at ${last.servers} servers; target ≤ 350 tokens (with the roster): ${last.proxyTokens <= 350 ? "met" : "MISSED"}`,
    `   child processes while sessions searched the cached catalogs: ${r.spawned}`,
  ].join("\n");
}
