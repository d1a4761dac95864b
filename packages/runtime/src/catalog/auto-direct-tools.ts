/**
 * `directTools: "auto"` (the global setting, or a server's own): a proxy
 * only pays off for a large catalog. While the whole enabled catalog is
 * small — at most `AUTO_DIRECT_LIMITS.tools` tools and
 * `AUTO_DIRECT_LIMITS.tokens` tokens of tool definitions — the servers that
 * follow "auto" declare every tool directly; otherwise they stay behind the
 * proxy.
 *
 * The decision is made once, from the metadata known at start-up (the
 * startup snapshot's cached listings; nothing is started to decide), and
 * kept for the session, so the declared tools — and the model's prompt
 * cache — do not move under the user:
 * - an enabled server whose tools are not known (never listed, or its
 *   definition changed) makes the size unknown: every "auto" server stays
 *   behind the proxy this session; its listing lands in the cache, and the
 *   next start decides;
 * - a catalog that grows past the limits mid-session keeps the decision
 *   (a direct server's new tools are declared, as with `directTools: true`)
 *   until the next start, which decides again;
 * - servers that arrive later (enabled, or project servers approved after
 *   start-up) stay behind the proxy until the next start.
 */
import { isAppOnly, type ServerDefinition, type ToolMetadata } from "@pi-mcp-adapter/core";

/** The largest catalog "auto" declares directly: both limits must hold. */
export const AUTO_DIRECT_LIMITS = { tools: 10, tokens: 2_000 } as const;

/** What "auto" decided for a session. */
export interface AutoDirect {
  /** The servers following "auto" that declare every tool directly: all of them when small, else none. */
  servers: readonly string[];
  /** One sentence saying what was measured and decided (for status). */
  reason: string;
}

/** A server's definition and its metadata as known now (`undefined`: not listed yet). */
export interface AutoDirectInput {
  definition: ServerDefinition;
  metadata: readonly ToolMetadata[] | undefined;
}

/** Whether `server` follows "auto": its own `directTools`, else the global default. */
export function followsAuto(server: ServerDefinition, settings: { directTools?: unknown }): boolean {
  const own = server.directTools;
  return own === "auto" || (own === undefined && settings.directTools === "auto");
}

/** What a tool's declaration adds to a model request, in tokens (name, description and schema; chars / 4). */
export function toolDefinitionTokens(tool: ToolMetadata): number {
  return (tool.prefixedName.length + tool.description.length + JSON.stringify(tool.inputSchema).length) / 4;
}

/**
 * Decides "auto" from the enabled servers' metadata known now; `undefined`
 * when no enabled server follows "auto" (nothing to decide).
 */
export function decideAutoDirect(
  servers: readonly AutoDirectInput[],
  settings: { directTools?: unknown },
): AutoDirect | undefined {
  const enabled = servers.filter((s) => !s.definition.disabled);
  const following = enabled.filter((s) => followsAuto(s.definition, settings)).map((s) => s.definition.name);
  if (following.length === 0) return undefined;
  const unknown = enabled.filter((s) => !s.metadata).map((s) => s.definition.name);
  if (unknown.length) {
    return {
      servers: [],
      reason:
        `directTools "auto": behind the proxy this session, since the tools of ${listNames(unknown)} ` +
        "are not known yet (the next start decides)",
    };
  }
  const tools = enabled.flatMap((s) => s.metadata ?? []).filter((t) => t.kind === "tool" && !isAppOnly(t.ui));
  const tokens = Math.ceil(tools.reduce((sum, t) => sum + toolDefinitionTokens(t), 0));
  const small = tools.length <= AUTO_DIRECT_LIMITS.tools && tokens <= AUTO_DIRECT_LIMITS.tokens;
  const size = `${tools.length} tool${tools.length === 1 ? "" : "s"}, ${tokens.toLocaleString("en")} tokens`;
  const limits = `${AUTO_DIRECT_LIMITS.tools} tools / ${AUTO_DIRECT_LIMITS.tokens.toLocaleString("en")} tokens`;
  return small
    ? { servers: following, reason: `directTools "auto": ${size} (at most ${limits}): declared directly` }
    : { servers: [], reason: `directTools "auto": ${size} (over ${limits}): behind the proxy` };
}

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 3).map((n) => `"${n}"`);
  return names.length > 3 ? `${shown.join(", ")} and ${names.length - 3} more` : shown.join(", ");
}
