/**
 * Always-on tokens: what an adapter adds to Pi's first model request (the
 * whole request body as JSON, chars / 4, minus the same request from Pi
 * alone: tool declarations, system prompt additions, everything). Warm
 * metadata cache, lazy servers: proxy only with 1 server and with all 38,
 * then all 38 with the first 5 tools of one server direct (for Pi's
 * built-in MCP, `toolExposure: { <tool>: "direct" }`).
 */

import type { CatalogServer } from "../shell/shell-home.js";
import { definitionText, tokens as textTokens } from "../shell/shell-recording-pi.js";
import type { AdapterId, AdapterKind, BenchProject } from "./side-by-side-project.js";
import { catalogEntries } from "./side-by-side-project.js";
import { warmCaches } from "./side-by-side-startup.js";

export const DIRECT_TOOLS = 5;

export interface TokenRow {
  label: string;
  /** Tokens added over Pi alone, per adapter. */
  tokens: Record<AdapterId, number>;
  /** The `mcp` proxy tool's definition alone (name + description + parameters, chars / 4), per adapter. */
  proxyDefinition: Record<AdapterId, number>;
  /** Tool names each adapter declared (beyond Pi's own). */
  tools: Record<AdapterId, string[]>;
}

export async function measureTokens(projects: BenchProject[], servers: CatalogServer[]): Promise<TokenRow[]> {
  // The one server: the first with at least five tools, so the direct row has exactly five.
  const one = servers.find((s) => s.tools.length >= DIRECT_TOOLS)!;
  const configs = [
    { label: `proxy only, 1 server (${one.name}, ${one.tools.length} tools)`, servers: [one] },
    { label: `proxy only, ${servers.length} servers`, servers },
    {
      label: `${servers.length} servers + ${DIRECT_TOOLS} direct tools (${one.name})`,
      servers,
      extra: (kind: AdapterKind) => (s: CatalogServer) => {
        if (s !== one) return {};
        const direct = s.tools.slice(0, DIRECT_TOOLS).map((t) => t.name);
        return kind === "builtin"
          ? { toolExposure: Object.fromEntries(direct.map((name) => [name, "direct"])) }
          : { directTools: direct };
      },
    },
  ];
  await warmCaches(projects, servers.length);
  const rows: TokenRow[] = [];
  const none = projects.find((p) => p.adapter.id === "none")!;
  const baseline = await none.run([]);
  const piTools = new Set((baseline.first.tools ?? []).map((t) => t.function.name));
  for (const config of configs) {
    const tokens = { none: 0 } as Record<AdapterId, number>;
    const tools = { none: [] } as unknown as Record<AdapterId, string[]>;
    const proxyDefinition = { none: 0 } as Record<AdapterId, number>;
    for (const p of projects) {
      if (p === none) continue;
      p.configure(catalogEntries(config.servers, p.project.pidDir, config.extra?.(p.adapter.kind)));
      const run = await p.run([]);
      tokens[p.adapter.id] =
        textTokens(JSON.stringify(run.first)) - textTokens(JSON.stringify(baseline.first));
      const declared = (run.first.tools ?? []).map((t) => t.function);
      tools[p.adapter.id] = declared.map((t) => t.name).filter((n) => !piTools.has(n));
      const proxy = declared.find((t) => t.name === "mcp");
      proxyDefinition[p.adapter.id] = proxy
        ? textTokens(
            definitionText({ ...proxy, description: proxy.description ?? "", parameters: proxy.parameters }),
          )
        : 0;
    }
    rows.push({ label: config.label, tokens, proxyDefinition, tools });
  }
  // Back to the suite's standard config.
  for (const p of projects) p.configure(catalogEntries(servers, p.project.pidDir));
  return rows;
}
