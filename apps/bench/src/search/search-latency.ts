/**
 * Search latency: median query time over the eval catalog after indexing,
 * index build time (of new tool objects each time, so per-object reuse does
 * not count; `index-build.ts` measures fresh processes and rebuilds), and a scaling run over synthetic catalogs built by
 * renaming the real tools (so term statistics stay realistic). Each figure is
 * shown next to the 991-tool run of the same process, as a ratio.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { createSearchIndex, rankTools } from "@pi-mcp-adapter/search";
import type { EvalData } from "../eval-data.js";

export interface LatencyRow {
  tools: number;
  buildMs: number;
  medianSearchMs: number;
  p95SearchMs: number;
}

function timeMs(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** `size` tools: copies of the real ones under numbered server names. */
export function syntheticCatalog(tools: readonly ToolMetadata[], size: number): ToolMetadata[] {
  return Array.from({ length: size }, (_, i) => {
    const tool = tools[i % tools.length]!;
    const copy = Math.floor(i / tools.length);
    const server = copy === 0 ? tool.server : `${tool.server}-${copy}`;
    return { ...tool, server, prefixedName: `${server.replace(/[^A-Za-z0-9_]/g, "_")}_${tool.name}` };
  });
}

/** New objects and strings of the same tools: search keeps each tool's analysis per object, this is a build without it. */
const copyOf = (tools: ToolMetadata[]): ToolMetadata[] => JSON.parse(JSON.stringify(tools));

function measureAt(tools: ToolMetadata[], queries: string[], rounds: number): LatencyRow {
  let index = createSearchIndex(tools);
  const timeBuild = () => {
    const copy = copyOf(tools);
    return timeMs(() => (index = createSearchIndex(copy)));
  };
  const builds = [timeBuild()];
  if (tools.length <= 20_000) for (let i = 0; i < 4; i++) builds.push(timeBuild());
  for (const q of queries.slice(0, 20)) rankTools(q, index); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) for (const q of queries) samples.push(timeMs(() => rankTools(q, index)));
  return {
    tools: tools.length,
    buildMs: percentile(builds, 0.5),
    medianSearchMs: percentile(samples, 0.5),
    p95SearchMs: percentile(samples, 0.95),
  };
}

export function measureLatency(data: EvalData, options: { maxScale: number }): LatencyRow[] {
  const queries = data.queries.map((q) => q.query);
  const rows = [measureAt([...data.tools], queries, 10)];
  for (const size of [10_000, 100_000]) {
    if (size > options.maxScale) continue;
    rows.push(measureAt(syntheticCatalog(data.tools, size), queries, size >= 100_000 ? 1 : 3));
  }
  return rows;
}

export function formatLatency(rows: LatencyRow[]): string {
  const base = rows[0]!;
  const lines = [
    "| tools | index build ms | median search ms | p95 search ms | search time / 991-tool time | tools / 991 |",
    "|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.tools} | ${row.buildMs.toFixed(1)} | ${row.medianSearchMs.toFixed(3)} | ${row.p95SearchMs.toFixed(3)} | ${(row.medianSearchMs / base.medianSearchMs).toFixed(1)}x | ${(row.tools / base.tools).toFixed(1)}x |`,
    );
  }
  return lines.join("\n");
}
