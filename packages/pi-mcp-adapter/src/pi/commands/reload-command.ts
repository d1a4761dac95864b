/**
 * `/mcp-adapter reload`: reads every config source again (the adapter's
 * files, the host configs it imports, Pi packages, servers other extensions
 * registered) and applies the difference to the running session through the
 * runtime's `reload` — the path `edit`, `add`, enable/disable and panel saves
 * take for one file: new servers are added, removed ones closed, changed ones
 * connect afresh, and the rest keep their connection and listing.
 */
import { formatProblem } from "@pi-mcp-adapter/config";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { AdapterSubcommand } from "./adapter-command.js";

type ReloadReport = Awaited<ReturnType<AdapterRuntime["reload"]>>;

export function reloadSubcommand(runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: "reload",
    args: "",
    summary: "read every config source again and apply what changed to this session",
    run: async (words, ctx) => {
      if (words.length) {
        ctx.ui.notify("Usage: /mcp-adapter reload", "warning");
        return;
      }
      const runtime = await runtimeFor(ctx);
      const report = await runtime.reload();
      const problems = runtime.servers.problems.filter((p) => p.severity !== "info");
      const lines = [reloadSummary(report, runtime), ...problems.map(formatProblem)];
      ctx.ui.notify(lines.join("\n"), problems.length ? "warning" : "info");
    },
  };
}

/** One line saying what the reload changed, e.g. `added docs; removed old; changed api`. */
export function reloadSummary(report: ReloadReport, runtime: Pick<AdapterRuntime, "listings">): string {
  const states = new Map(runtime.listings.summaries().map((s) => [s.name, s.state]));
  const parts = [
    ["added", report.added],
    ["removed", report.removed],
    ["changed", report.redefined],
    ["disabled", report.toggled.filter((name) => states.get(name) === "disabled")],
    ["enabled", report.toggled.filter((name) => states.get(name) !== "disabled")],
  ] as const;
  const changes = parts
    .filter(([, names]) => names.length)
    .map(([verb, names]) => `${verb} ${names.join(", ")}`);
  const configured = `${states.size} server${states.size === 1 ? "" : "s"} configured`;
  return changes.length
    ? `Reloaded MCP config: ${changes.join("; ")} (${configured}).`
    : `Reloaded MCP config: nothing changed (${configured}).`;
}
