/**
 * The proxy tools: `mcp` (unless `disableProxyTool`) and, with
 * `namespaceProxyTools`, a small `mcp__<server>` per server that searches,
 * describes and calls within that server only. Per-server wrappers are
 * opt-in: with 38 servers they cost several thousand tokens in every
 * request, the one `mcp` tool about 330 with its server roster.
 *
 * `mcp` is registered once, at start-up, with the roster of the startup
 * snapshot, and never again: Pi would accept a new description, but every
 * later request would then start differently (a prompt-cache miss), so
 * servers enabled, disabled or approved mid-session show in `mcp({})`, and
 * in the roster from the next start (or `/reload`). With namespace proxies
 * each server already has a tool of its own, so `mcp` carries no roster.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { foldName } from "@pi-mcp-adapter/core";
import type { ProxyOutcome } from "@pi-mcp-adapter/runtime";
import {
  type DirectToolSettings,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  proxyToolDescription,
} from "@pi-mcp-adapter/runtime/startup";
import { proxyCallTitle, type RenderSettings, resultRenderers } from "../render/render-results.js";
import type { RunningUpdate } from "../render/running-rows.js";

type RunProxy = (
  params: ProxyParams,
  signal: AbortSignal | undefined,
  ctx: ExtensionContext,
  /** Pi's `onUpdate`: a call's row shows its progress through it (`running-rows.ts`). */
  update?: (partial: RunningUpdate) => void,
  /** Pi's id of the model's tool call (kept with an MCP task the call starts). */
  callId?: string,
) => Promise<Pick<ProxyOutcome, "content" | "details">>;

/** `mcp`'s description without a server roster (beside per-server namespace proxies, or with no server). */
export const PROXY_TOOL_DESCRIPTION = proxyToolDescription([]);

/** Registers the proxy tools `settings` ask for; returns the names registered. */
export function registerProxyTools(
  pi: ExtensionAPI,
  settings: DirectToolSettings,
  servers: readonly string[],
  run: RunProxy,
  /** How calls look in Pi's chat (`toolResultRendering`, `collapsedResultLines`). */
  render: RenderSettings = {},
  /** `mcp`'s description: with the servers' roster (`proxyToolDescription`), or without one. */
  description = PROXY_TOOL_DESCRIPTION,
): string[] {
  if (settings.disableProxyTool) return [];
  pi.registerTool({
    name: PROXY_TOOL_NAME,
    label: "MCP",
    description: settings.namespaceProxyTools ? PROXY_TOOL_DESCRIPTION : description,
    // Plain JSON Schema: both Pi lines accept it, and it avoids a runtime TypeBox import.
    parameters: PROXY_TOOL_PARAMETERS as never,
    // Pi 1.x: a call naming tools still registering waits for them (the extension's tool_call handler).
    ...({ reachesTools: reachedWords } as object),
    ...resultRenderers(render, proxyCallTitle),
    execute: (id, params, signal, update, ctx) =>
      run(params as ProxyParams, signal, ctx, update as never, id),
  });
  if (!settings.namespaceProxyTools) return [PROXY_TOOL_NAME];
  for (const server of servers) {
    pi.registerTool({
      name: namespaceProxyName(server),
      label: `MCP ${server}`,
      description: `Tools of MCP server ${server}: {search: "words"} finds, {describe: "name"} shows, {tool: "name", args: {...}} calls.`,
      parameters: NAMESPACE_PROXY_PARAMETERS as never,
      ...resultRenderers(render, (args) => proxyCallTitle({ ...args, server })),
      execute: (id, params, signal, update, ctx) =>
        run({ ...(params as ProxyParams), server }, signal, ctx, update as never, id),
    });
  }
  return [PROXY_TOOL_NAME, ...servers.map(namespaceProxyName)];
}

/** Words of a proxy call that may name a tool (Pi 1.x `reachesTools`). */
export function reachedWords(input: Record<string, unknown>): readonly string[] {
  const words: string[] = [];
  for (const key of ["tool", "search", "describe", "server", "connect"]) {
    const value = input[key];
    if (typeof value === "string") words.push(...value.split(/\s+/).filter(Boolean));
  }
  return words;
}

/** `namespaceProxyTools`: the per-server proxy's name. */
export function namespaceProxyName(server: string): string {
  return `mcp__${foldName(server)}`;
}

/** The proxy's parameters without `server` (the wrapper fixes it) and without auth. */
const NAMESPACE_PROXY_PARAMETERS = {
  type: "object",
  properties: Object.fromEntries(
    Object.entries(PROXY_TOOL_PARAMETERS.properties).filter(([key]) =>
      ["search", "describe", "tool", "args", "limit", "offset", "includeSchemas"].includes(key),
    ),
  ),
  additionalProperties: false,
};
