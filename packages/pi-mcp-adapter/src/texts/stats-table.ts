/**
 * The call stats table `/mcp-adapter stats` and the CLI's `stats` print
 * (`settings.captureStats`): one row per server and tool with calls, errors,
 * timeouts, latency percentiles, bytes and sampling tokens.
 */
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";

/** A row of `runtime.stats.summary()`. */
type StatsRow = ReturnType<NonNullable<AdapterRuntime["stats"]>["summary"]>[number];

/** A table for people: one row per server/tool; `where` names the stats file, if there is one. */
export function formatStats(rows: readonly StatsRow[], where?: string): string {
  const title = `MCP call stats${where ? ` (${where})` : " (this session)"}`;
  if (rows.length === 0) return `${title}\nNo MCP calls yet.`;
  const header = ["server/tool", "calls", "errors", "timeouts", "p50", "p95", "in", "out", "sampling tokens"];
  const body = rows.map((r) => [
    `${r.server}/${r.tool}`,
    String(r.calls),
    String(r.errors) + (r.refused ? ` +${r.refused} refused` : ""),
    String(r.timeouts),
    r.p50Ms === undefined ? "-" : `${r.p50Ms} ms`,
    r.p95Ms === undefined ? "-" : `${r.p95Ms} ms`,
    formatBytes(r.bytesIn),
    formatBytes(r.bytesOut),
    r.samplingInputTokens || r.samplingOutputTokens
      ? `${r.samplingInputTokens} in / ${r.samplingOutputTokens} out`
      : "-",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [title, line(header), ...body.map(line)].join("\n");
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
