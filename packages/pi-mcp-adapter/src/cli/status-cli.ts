/**
 * `status` and `list`/`tools [server]`: what is configured and what the
 * metadata cache knows. Neither starts a server: status reports the runtime's
 * view before any connection, and the tool list comes from the cache.
 */
import { compareToolPins, serverIdentity } from "@pi-mcp-adapter/catalog";
import { formatProblem } from "@pi-mcp-adapter/config";
import {
  descriptionFirstLine,
  formatStatus,
  formatToolChanges,
  loadStartupSnapshot,
  type ServerSummary,
  type ServerTokenCost,
  type StartupSnapshot,
  snapshotTokenCosts,
  toolChangeSummary,
} from "@pi-mcp-adapter/runtime/startup";
import { formatTokenCosts } from "../texts/token-cost-line.js";
import type { CliContext, CliOutput } from "./cli-context.js";
import { EXIT, errorJson } from "./cli-error.js";
import { awaitingApprovalNote, pendingJson } from "./cli-trust.js";
import { withSharedSessions } from "./daemon-cli.js";

export async function statusCli(ctx: CliContext): Promise<CliOutput> {
  const runtime = await ctx.runtime();
  const pending = await ctx.pendingProjectServers();
  // Tool pinning's findings as the metadata cache knows them: status never starts a server.
  const snapshot = await loadStartupSnapshot({
    cwd: ctx.options.cwd,
    configPath: ctx.options.config,
    trust: ctx.trust,
    environment: ctx.environment,
  });
  // Servers shared through the daemon show how many sessions use them (status never starts a daemon).
  const { servers, daemon } = await withSharedSessions(
    withCachedSkips(runtime.listings.summaries(), snapshot),
    ctx.environment.agentDir,
  );
  const changes = cachedToolChanges(snapshot);
  // What each server costs in every model request, and with all its tools direct (metadata cache only).
  const costs = new Map(snapshotTokenCosts(snapshot).map((c) => [c.server, c]));
  const lines = [formatStatus(servers, runtime.servers.problems), ...formatToolChanges(changes)];
  if (costs.size) lines.push(formatTokenCosts([...costs.values()]));
  if (pending.length) lines.push(awaitingApprovalNote(pending));
  return {
    text: lines.join("\n"),
    json: {
      servers: servers.map((s) => ({
        name: s.name,
        state: s.state,
        sandboxed: s.sandboxed === true,
        shared: s.shared ?? null,
        source: s.source,
        toolCount: s.toolCount ?? null,
        resourceCount: s.resourceCount ?? null,
        promptCount: s.promptCount ?? null,
        error: s.error ?? null,
        skippedLists: s.skippedLists ?? [],
        refusedSkills: s.refusedSkills ?? [],
        tokens: tokensJson(costs.get(s.name)),
      })),
      awaitingApproval: pendingJson(pending),
      daemon: daemon ? { pid: daemon.pid, sessions: daemon.sessions, servers: daemon.servers.length } : null,
      toolChanges: changes.flatMap(({ server, changes }) =>
        changes.map((c) => ({ server, tool: c.tool, kind: c.kind, change: toolChangeSummary(c) })),
      ),
      problems: runtime.servers.problems.map((p) => ({
        severity: p.severity,
        file: p.file,
        field: p.field ?? null,
        message: p.message,
      })),
    },
  };
}

/**
 * Changed and new tools as the metadata cache knows them — each server's
 * cached listing against its pins — without starting a server; none while
 * `pinTools` is `false` (pinning off).
 */
function cachedToolChanges(snapshot: StartupSnapshot) {
  const cache = snapshot.cache;
  if (!cache || snapshot.config.settings.pinTools === false) return [];
  return snapshot.servers.flatMap(({ server, listing }) => {
    const pins = cache.pins(server.name);
    if (!listing || !pins) return [];
    const { changes } = compareToolPins(pins, serverIdentity(server), listing.tools);
    return changes.length ? [{ server: server.name, changes }] : [];
  });
}

/**
 * Summaries with the lists each server's cached listing lacks and the skill entries it refused
 * (the CLI's runtime has listed nothing yet).
 */
function withCachedSkips(servers: ServerSummary[], snapshot: StartupSnapshot): ServerSummary[] {
  const cached = new Map(snapshot.servers.map((s) => [s.server.name, s.listing]));
  return servers.map((s) => {
    const skippedLists = s.skippedLists ?? cached.get(s.name)?.skipped;
    const refusedSkills = s.refusedSkills ?? cached.get(s.name)?.refusedSkills;
    return { ...s, ...(skippedLists ? { skippedLists } : {}), ...(refusedSkills ? { refusedSkills } : {}) };
  });
}

/** A server's token cost for `--json`; `null` for a server the session does not declare (disabled, pending). */
function tokensJson(cost: ServerTokenCost | undefined) {
  if (!cost) return null;
  return {
    perRequest: cost.perRequest,
    roster: cost.roster,
    directTools: cost.directTools,
    direct: cost.direct,
    allDirect: cost.allDirect,
  };
}

export async function listCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const only = words[0] ?? ctx.options.server;
  const snapshot = await loadStartupSnapshot({
    cwd: ctx.options.cwd,
    configPath: ctx.options.config,
    trust: ctx.trust,
    environment: ctx.environment,
  });
  const servers = snapshot.servers.filter((s) => !only || s.server.name === only);
  const pending = snapshot.config.pendingProjectServers;
  if (only && servers.length === 0 && !pending.some((p) => p.name === only)) {
    const known = snapshot.servers.map((s) => s.server.name).join(", ") || "none";
    return {
      text: `No enabled MCP server named "${only}" (configured: ${known}).`,
      json: errorJson("unknown_server", `No enabled MCP server named "${only}"`, { servers: [] }),
      exitCode: EXIT.failed,
    };
  }
  const lines: string[] = [];
  const json = servers.map((entry) => {
    const tools = (entry.metadata ?? []).filter((t) => t.kind === "tool");
    if (!entry.listing) {
      lines.push(
        `${entry.server.name}: not listed yet (tools are listed once the server has run: pi-mcp-adapter search <words>, or use it in Pi)`,
      );
    } else {
      lines.push(`${entry.server.name}: ${tools.length} tool${tools.length === 1 ? "" : "s"}`);
      for (const tool of tools)
        lines.push(`- ${tool.prefixedName}: ${descriptionFirstLine(tool.description)}`);
    }
    return {
      name: entry.server.name,
      listed: entry.listing !== undefined,
      tools: tools.map((t) => ({ name: t.prefixedName, tool: t.name, description: t.description })),
    };
  });
  if (servers.length === 0 && !pending.length) lines.push("No enabled MCP servers configured.");
  const shown = only ? pending.filter((p) => p.name === only) : pending;
  if (shown.length) lines.push(awaitingApprovalNote(shown));
  for (const problem of snapshot.config.problems.filter((p) => p.severity === "error")) {
    lines.push(`error: ${formatProblem(problem)}`);
  }
  return { text: lines.join("\n"), json: { servers: json, awaitingApproval: pendingJson(shown) } };
}
