/**
 * Which MCP tools a host registers as tools of their own ("direct tools"),
 * under which names, and what stands in the way. Pi-free: the Pi shell turns
 * a plan into registrations; the runtime and the startup snapshot feed it
 * the metadata they know.
 *
 * A server's own `directTools` wins over the global setting: `true` (all
 * its tools), a list of original MCP names, `"search"` (all, registered
 * inactive until a search or a call activates them), or `"auto"` (all while
 * the enabled catalog is small; see `auto-direct-tools.ts`). `includeTools` /
 * `excludeTools` already shaped the metadata. Names are the catalog's
 * prefixed names (prefix mode, provider name rules, 64-character limit), so
 * a direct tool and `mcp({ tool })` agree on what a tool is called. A name
 * another tool already holds is reported, never silently shadowed.
 */
import type { ConfiguredServer, Settings } from "@pi-mcp-adapter/config";
import { isAppOnly, type ServerDefinition, type ToolMetadata } from "@pi-mcp-adapter/core";
import { type AutoDirect, decideAutoDirect, followsAuto } from "./auto-direct-tools.js";

/** The global settings direct tools follow. */
export interface DirectToolSettings {
  /** `settings.directTools`: the default for servers that set none. */
  directTools?: boolean | "search" | "auto";
  /** Keep the registered surface as the initial sync left it. */
  freezeDirectTools?: boolean;
  /** Register servers without cached metadata on a later turn instead of connecting at start-up. */
  deferWithMissingMetadata?: boolean;
  /** Check arguments against the input schema before calling. */
  strictDirectToolArguments?: boolean;
  /** `"bounded"`: results keep guarded raw fields in `details`; default `"lean"`. */
  directToolResultDetails?: "lean" | "bounded";
  /** Register no `mcp` proxy tool. */
  disableProxyTool?: boolean;
  /** Register a small `mcp__<server>` proxy per server. */
  namespaceProxyTools?: boolean;
}

/** How a direct tool reaches the model: declared at once, or found by search first. */
export type DirectExposure = "direct" | "search";

export interface DirectTool {
  /** The name the host registers (the catalog's prefixed name). */
  name: string;
  exposure: DirectExposure;
  tool: ToolMetadata;
}

export interface DirectToolPlan {
  tools: DirectTool[];
  /** Collisions and listed names a server does not offer, one sentence each. */
  problems: string[];
  /** The `"auto"` decision the plan followed, when a server follows `"auto"`. */
  auto?: AutoDirect;
}

/** What a server wants: nothing, every tool, or the listed original names; and how they are exposed. */
export interface DirectSelection {
  exposure: DirectExposure;
  /** `true` for every tool. */
  names: true | readonly string[];
}

/**
 * A server's direct-tool selection, its own value winning over the global
 * default; `undefined` for none. A server following `"auto"` takes every
 * tool when `auto` (the session's decision) names it, else none.
 */
export function directSelection(
  server: ServerDefinition & Pick<ConfiguredServer, "directToolsExposure">,
  settings: DirectToolSettings,
  auto?: AutoDirect,
): DirectSelection | undefined {
  const exposureOf = (search: boolean): DirectExposure => (search ? "search" : "direct");
  if (followsAuto(server, settings)) {
    return auto?.servers.includes(server.name) ? { exposure: "direct", names: true } : undefined;
  }
  const own = server.directTools;
  if (own !== undefined) {
    if (own === false) return undefined;
    if (Array.isArray(own)) return own.length ? { exposure: "direct", names: own } : undefined;
    // `directTools: "search"` arrives as `true` plus `directToolsExposure: "search"` (see config).
    return {
      exposure: exposureOf(server.directToolsExposure === "search"),
      names: true,
    };
  }
  const global = settings.directTools;
  if (global === undefined || global === false || global === "auto") return undefined;
  return { exposure: exposureOf(global === "search"), names: true };
}

export interface PlanInput {
  definition: ServerDefinition;
  /** The server's metadata as known now (memory or cache); `undefined` when not listed yet. */
  metadata: readonly ToolMetadata[] | undefined;
}

/**
 * The direct tools of `servers` in config order. `reserved` names (the
 * host's own tools, the proxy tool) are never taken; the first server to
 * claim a name keeps it. `auto` is the session's `"auto"` decision; left
 * out, it is decided from `servers` as given.
 */
export function planDirectTools(
  servers: readonly PlanInput[],
  settings: DirectToolSettings,
  reserved: Iterable<string> = [],
  auto: AutoDirect | undefined = decideAutoDirect(servers, settings),
): DirectToolPlan {
  const taken = new Map<string, string>([...reserved].map((name) => [name, "a tool of the host"]));
  const tools: DirectTool[] = [];
  const problems: string[] = [];
  for (const { definition, metadata } of servers) {
    if (definition.disabled || !metadata) continue;
    const selection = directSelection(definition, settings, auto);
    if (!selection) continue;
    // App-only tools (`_meta.ui.visibility: ["app"]`) are never the model's.
    const offered = metadata.filter((t) => t.kind === "tool" && !isAppOnly(t.ui));
    let chosen = offered;
    if (selection.names !== true) {
      const wanted = new Set(selection.names);
      chosen = offered.filter((t) => wanted.has(t.name));
      const found = new Set(chosen.map((t) => t.name));
      const absent = selection.names.filter((n) => !found.has(n));
      if (absent.length) {
        problems.push(
          `Server "${definition.name}": directTools names ${absent.map((n) => `"${n}"`).join(", ")}, ` +
            "which it does not offer (or includeTools/excludeTools hide)",
        );
      }
    }
    for (const tool of chosen) {
      const holder = taken.get(tool.prefixedName);
      if (holder !== undefined) {
        problems.push(
          `Direct tool "${tool.prefixedName}" of server "${definition.name}" is not registered: ` +
            `the name is taken by ${holder} (set toolPrefix to tell them apart)`,
        );
        continue;
      }
      taken.set(tool.prefixedName, `tool "${tool.name}" of server "${tool.server}"`);
      tools.push({ name: tool.prefixedName, exposure: selection.exposure, tool });
    }
  }
  return auto ? { tools, problems, auto } : { tools, problems };
}

/**
 * Servers that want direct tools but whose metadata is not known yet (they
 * must be listed first). Never a server following `"auto"`: it is decided
 * from what is known, and no server is started to decide it.
 */
export function serversNeedingListing(servers: readonly PlanInput[], settings: DirectToolSettings): string[] {
  return servers
    .filter((s) => !s.definition.disabled && !s.metadata && directSelection(s.definition, settings))
    .map((s) => s.definition.name);
}

/** The direct-tool keys of the merged `settings`. */
export function directToolSettings(settings: Settings): DirectToolSettings {
  const {
    directTools,
    freezeDirectTools,
    deferWithMissingMetadata,
    strictDirectToolArguments,
    directToolResultDetails,
    disableProxyTool,
    namespaceProxyTools,
  } = settings;
  return {
    directTools,
    freezeDirectTools,
    deferWithMissingMetadata,
    strictDirectToolArguments,
    directToolResultDetails,
    disableProxyTool,
    namespaceProxyTools,
  };
}
