/**
 * What each MCP server costs in every model request, in estimated tokens,
 * and what it would cost with all its tools direct, so a user can choose
 * between direct tools and the proxy (the Pi panel and `status` show it).
 *
 * A server costs its entry in the proxy tool's server roster plus the
 * declarations of its tools declared directly now (`"search"` tools only
 * once the model activated them, so they count as none here). The estimate
 * is the one the benchmarks use: a declaration is its name, description and
 * JSON-Schema parameters as text, and a token is four characters. The costs
 * as the startup snapshot gives them are in `startup/snapshot-token-costs.ts`.
 */
import { isAppOnly, type ToolMetadata } from "@pi-mcp-adapter/core";
import type { DirectTool, DirectToolSettings } from "../catalog/direct-tools.js";
import { type RosterServer, rosterEntries } from "./server-roster.js";

/** A tool as a model request declares it. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: unknown;
}

/** The token estimate: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A declaration as text: name, description and parameters, as the estimate counts it. */
export function declarationText(tool: ToolDeclaration): string {
  return tool.name + tool.description + JSON.stringify(tool.parameters);
}

/** How a host declares an MCP tool under `name`: its description (or a stand-in) and its schema as an object. */
export function directDeclaration(name: string, tool: ToolMetadata): ToolDeclaration {
  return {
    name,
    description: tool.description || `Tool ${tool.name} of MCP server ${tool.server}`,
    // A server's schema without `type` is an object by MCP's rules; hosts require one.
    parameters: { ...tool.inputSchema, type: "object" },
  };
}

export interface TokenCostServer extends RosterServer {
  /** Its tools as known now (memory or cache); `undefined` while it was never listed. */
  tools: readonly ToolMetadata[] | undefined;
}

export interface ServerTokenCost {
  server: string;
  /** Its entry in the proxy tool's server roster (0 without a proxy, or when only counted in "and N more"). */
  roster: number;
  /** How many of its tools are declared directly now, and their declarations' tokens. */
  directTools: number;
  direct: number;
  /** What it adds to every request now: `roster + direct`. */
  perRequest: number;
  /** What it would add with every tool direct (roster + every declaration); `null` while its tools are unknown. */
  allDirect: number | null;
}

/**
 * The costs of `servers` (config order, as the roster lists them), given the
 * direct tools declared now (`declared`: a direct-tool plan's tools) and
 * whether the proxy tool, which carries the roster, is declared.
 */
export function serverTokenCosts(
  servers: readonly TokenCostServer[],
  declared: readonly DirectTool[],
  options: { roster: boolean },
): ServerTokenCost[] {
  const { entries } = options.roster ? rosterEntries(servers) : { entries: [] };
  return servers.map((s, i) => {
    const name = s.server.name;
    const entry = entries[i];
    const roster = entry === undefined ? 0 : estimateTokens(`${entry}, `);
    const own = declared.filter((d) => d.tool.server === name && d.exposure === "direct");
    const direct = tokensOf(own.map((d) => directDeclaration(d.name, d.tool)));
    const offered = s.tools?.filter((t) => t.kind === "tool" && !isAppOnly(t.ui));
    const all = offered ? tokensOf(offered.map((t) => directDeclaration(t.prefixedName, t))) : null;
    return {
      server: name,
      roster,
      directTools: own.length,
      direct,
      perRequest: roster + direct,
      allDirect: all === null ? null : roster + all,
    };
  });
}

/** What `liveTokenCosts` reads of a runtime (an `AdapterRuntime` fits). */
export interface TokenCostSource {
  listings: {
    summaries(): readonly { name: string; state: string; instructions?: string }[];
    /** Memory, else the metadata cache; never connects. */
    known(server: string): Promise<readonly ToolMetadata[] | undefined>;
  };
  catalog: { directTools(): { tools: readonly DirectTool[] }; readonly direct: DirectToolSettings };
  /** The server's definition; a config's `description` (the user's words for the roster) is read from it. */
  servers: { definition(name: string): object | undefined };
}

/** The costs of a running session's enabled servers, as it knows them now; starts no server. */
export async function liveTokenCosts(runtime: TokenCostSource): Promise<ServerTokenCost[]> {
  const enabled = runtime.listings.summaries().filter((s) => s.state !== "disabled");
  const tools = await Promise.all(enabled.map((s) => runtime.listings.known(s.name)));
  // Summaries again: a listing read from the cache just now brought the server's instructions.
  const summaries = new Map(runtime.listings.summaries().map((s) => [s.name, s]));
  const servers = enabled.map((s, i) => {
    const definition = runtime.servers.definition(s.name) as { description?: unknown } | undefined;
    const description = typeof definition?.description === "string" ? definition.description : undefined;
    const instructions = summaries.get(s.name)?.instructions;
    return {
      server: { name: s.name, ...(description ? { description } : {}) },
      ...(instructions ? { listing: { instructions } } : {}),
      tools: tools[i],
    };
  });
  return serverTokenCosts(servers, runtime.catalog.directTools().tools, {
    roster: runtime.catalog.direct.disableProxyTool !== true,
  });
}

function tokensOf(declarations: readonly ToolDeclaration[]): number {
  return declarations.length ? estimateTokens(declarations.map(declarationText).join("")) : 0;
}
