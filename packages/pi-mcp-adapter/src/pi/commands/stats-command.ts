/**
 * `/mcp-adapter stats`: per server and tool, calls, errors, timeouts,
 * latency percentiles and bytes of this session (`settings.captureStats`).
 */
import { formatStats } from "../../texts/stats-table.js";
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { AdapterSubcommand } from "./adapter-command.js";

export const STATS_OFF_MESSAGE =
  'MCP call stats are off. Set "captureStats": true in the "settings" of an MCP config file (kept in .pi/mcp-tool-stats.json; { "file": "…" } for another file).';

export function statsSubcommand(runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: "stats",
    args: "",
    summary: "calls, errors, timeouts and latency per MCP tool (settings.captureStats)",
    run: async (_words, ctx) => {
      const stats = (await runtimeFor(ctx)).stats;
      ctx.ui.notify(stats ? formatStats(stats.summary(), stats.file) : STATS_OFF_MESSAGE, "info");
    },
  };
}
