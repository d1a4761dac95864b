/**
 * Parallel start: 8 servers that each take 1 s to initialize, started by
 * `ConnectionManager.start()`. Baseline: the slowest of the same servers
 * connected one at a time in this run. Target ratio total/slowest ≈ 1.
 */
import { type ServerDefinition, ServerDefinitionSchema } from "@pi-mcp-adapter/core/schemas";
import { minimalServerPath } from "@pi-mcp-adapter/test-kit";
import { ConnectionManager, connectServer } from "@pi-mcp-adapter/transport";
import { timed } from "./transport-measure.js";

const SERVERS = 8;
const INIT_DELAY_MS = 1000;

function slowServer(index: number): ServerDefinition {
  return ServerDefinitionSchema.parse({
    name: `slow-${index}`,
    transport: "stdio",
    command: process.execPath,
    args: [minimalServerPath],
    env: { MINIMAL_INIT_DELAY_MS: String(INIT_DELAY_MS) },
    lifecycle: "eager",
    source: { file: "bench", key: `slow-${index}` },
  });
}

export interface ParallelStartResult {
  servers: number;
  slowestAloneMs: number;
  sumAloneMs: number;
  parallelMs: number;
  ratio: number;
  connected: number;
}

export async function measureParallelStart(): Promise<ParallelStartResult> {
  const definitions = Array.from({ length: SERVERS }, (_, i) => slowServer(i));
  const alone: number[] = [];
  for (const definition of definitions) {
    const { ms, value } = await timed(() => connectServer(definition));
    alone.push(ms);
    await value.close();
  }
  const manager = new ConnectionManager(definitions, {
    connect: (definition, signal) => connectServer(definition, {}, signal),
  });
  const { ms: parallelMs, value: statuses } = await timed(() => manager.start());
  await manager.shutdown();
  const slowestAloneMs = Math.max(...alone);
  return {
    servers: SERVERS,
    slowestAloneMs,
    sumAloneMs: alone.reduce((a, b) => a + b, 0),
    parallelMs,
    ratio: parallelMs / slowestAloneMs,
    connected: statuses.filter((s) => s.state === "connected").length,
  };
}

export function formatParallelStart(r: ParallelStartResult): string {
  return [
    `Parallel start: ${r.servers} servers, each initializing in ≥ ${INIT_DELAY_MS} ms`,
    `  one at a time: slowest ${r.slowestAloneMs.toFixed(0)} ms, sum ${r.sumAloneMs.toFixed(0)} ms`,
    `  start() in parallel: ${r.parallelMs.toFixed(0)} ms (${r.connected}/${r.servers} connected)`,
    `  ratio total/slowest: ${r.ratio.toFixed(2)} (target ≈ 1; sequential would be ${(r.sumAloneMs / r.slowestAloneMs).toFixed(1)})`,
  ].join("\n");
}
