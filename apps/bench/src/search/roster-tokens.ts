/**
 * First-request tokens of the proxy tool with its server roster: what the
 * real extension declares (name + description + parameters, chars / 4, as
 * `shell-definition-size.ts` counts it) with 1, 38 and 100 servers
 * configured and cached. 100 = the 38 eval servers, then copies of them
 * under new names (`github-2`, …) until there are 100. Baseline: the same
 * definition without a roster.
 */
import {
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  proxyToolDescription,
} from "@pi-mcp-adapter/runtime/startup";
import { type CatalogServer, createShellHome, loadCatalogServers } from "../shell/shell-home.js";
import { definitionText, RecordingPi, tokens } from "../shell/shell-recording-pi.js";

export interface RosterTokensRow {
  servers: number;
  tools: number;
  /** Tools the extension declared (the proxy alone, unless direct tools are configured). */
  declared: number;
  /** Tokens of everything declared. */
  tokens: number;
  /** How many servers the roster names (the rest are "and N more"). */
  named: number;
}

export interface RosterTokensResult {
  rows: RosterTokensRow[];
  /** The `mcp` definition without a roster. */
  baseline: number;
  /** The declared description with the 38 eval servers. */
  description38: string;
}

/** `count` servers: the catalog's, then copies of them renamed `<name>-2`, `<name>-3`, … */
export function syntheticServers(catalog: CatalogServer[], count: number): CatalogServer[] {
  return Array.from({ length: count }, (_, i) => {
    const source = catalog[i % catalog.length]!;
    const round = Math.floor(i / catalog.length);
    return round === 0 ? source : { ...source, name: `${source.name}-${round + 1}` };
  });
}

export async function measureRosterTokens(): Promise<RosterTokensResult> {
  const { default: extension } = await import("pi-mcp-adapter/extension");
  const catalog = loadCatalogServers();
  const one = catalog.find((s) => s.tools.length >= 5)!;
  const rows: RosterTokensRow[] = [];
  let description38 = "";
  for (const servers of [[one], catalog, syntheticServers(catalog, 100)]) {
    const home = await createShellHome(servers);
    try {
      const pi = new RecordingPi();
      await extension(pi as never);
      const proxy = pi.tools.find((t) => t.name === PROXY_TOOL_NAME)!;
      if (servers === catalog) description38 = proxy.description;
      const more = /and (\d+) more/.exec(proxy.description);
      rows.push({
        servers: servers.length,
        tools: servers.reduce((n, s) => n + s.tools.length, 0),
        declared: pi.tools.length,
        tokens: tokens(pi.tools.map(definitionText).join("")),
        named: servers.length - Number(more?.[1] ?? 0),
      });
    } finally {
      home.close();
    }
  }
  const baseline = tokens(
    definitionText({
      name: PROXY_TOOL_NAME,
      description: proxyToolDescription([]),
      parameters: PROXY_TOOL_PARAMETERS,
    }),
  );
  return { rows, baseline, description38 };
}

export function formatRosterTokens(r: RosterTokensResult): string {
  return [
    "First-request tokens of our declared tools: `mcp` with its server roster (name + description + parameters, chars/4, warm cache):",
    "   servers  tools  declared tools  tokens  servers named in the roster",
    ...r.rows.map(
      (row) =>
        `   ${String(row.servers).padStart(7)}  ${String(row.tools).padStart(5)}  ${String(row.declared).padStart(14)}  ${String(row.tokens).padStart(6)}  ${row.named === row.servers ? "all" : `${row.named} (+${row.servers - row.named} more)`}`,
    ),
    `   baseline, \`mcp\` without a roster: ${r.baseline} tokens`,
    "   (the design's ≤ 350 with 38 servers is the whole first request over Pi alone: bench:side-by-side --only tokens)",
    `   description with 38 servers: ${r.description38}`,
  ].join("\n");
}
