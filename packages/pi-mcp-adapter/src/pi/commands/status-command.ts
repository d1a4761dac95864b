/**
 * `/mcp-adapter status`: the servers, their state and tool counts, config
 * problems, tools that changed since they were accepted (tool pinning),
 * direct tools that could not be registered (and what
 * `directTools: "auto"` decided), what each server costs in every request
 * (as the panel shows it), MCP names that are also Pi's own tools, and the
 * stderr kept for servers in debug mode, as one text notice.
 */
import {
  formatDebugStderr,
  formatStatus,
  formatToolChanges,
  liveTokenCosts,
} from "@pi-mcp-adapter/runtime/startup";
import { formatTokenCosts } from "../../texts/token-cost-line.js";
import type { RuntimeFor } from "../host/runtime-loading.js";
import { type DirectToolRegistrar, directStatusLines } from "../tools/direct-tools.js";
import { piNameHints } from "../tools/pi-name-hints.js";
import type { AdapterSubcommand } from "./adapter-command.js";

export function statusSubcommand(
  runtimeFor: RuntimeFor,
  /** The last direct-tool plan's problems (collisions, unknown names) and "auto" decision, read when status runs. */
  lastPlan: () => Pick<DirectToolRegistrar, "problems" | "auto">,
): AdapterSubcommand {
  return {
    name: "status",
    args: "",
    summary: "servers, their state, tool counts and config problems",
    run: async (_words, ctx) => {
      const r = await runtimeFor(ctx);
      const servers = r.listings.summaries();
      const debug = servers
        .map((s) => formatDebugStderr(s.name, r.servers.debugStderr(s.name)))
        .filter(Boolean);
      // From memory or the metadata cache: status never starts a server to price it.
      const costs = await liveTokenCosts(r).catch(() => []);
      ctx.ui.notify(
        [
          formatStatus(servers, r.servers.problems),
          ...formatToolChanges(r.pins.report()),
          ...directStatusLines(lastPlan()),
          ...(await piNameHints(r)),
          ...(costs.length ? [formatTokenCosts(costs)] : []),
          ...debug,
        ].join("\n"),
        "info",
      );
    },
  };
}
