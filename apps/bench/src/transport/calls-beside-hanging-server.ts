/**
 * Calls beside a hanging server: three calls by name to a healthy stdio
 * server through the runtime, next to a server that was started and never
 * answers `initialize` (its `requestTimeoutMs` 10 s). Baseline: the same
 * three calls with the healthy server alone, in this run. Target ratio ≈ 1
 * (before the isolation work each call waited out the other server's
 * timeout: 30.5 s for the three against 1.1 s now, measured December 2026).
 */
import { type ServerDefinition, ServerDefinitionSchema } from "@pi-mcp-adapter/core/schemas";
import { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { hostileServerPath, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { timed } from "./transport-measure.js";

const HANG_TIMEOUT_MS = 10_000;

function stdio(name: string, script: string, extra: Record<string, unknown> = {}): ServerDefinition {
  return ServerDefinitionSchema.parse({
    name,
    transport: "stdio",
    command: process.execPath,
    args: [script],
    source: { file: "bench", key: name },
    ...extra,
  });
}

async function threeCalls(servers: ServerDefinition[]): Promise<number> {
  const runtime = new AdapterRuntime({ servers, connect: (d, signal) => connectServer(d, {}, signal) });
  try {
    const { ms } = await timed(async () => {
      for (let a = 0; a < 3; a++) await runtime.call("good_add", { a, b: 1 });
    });
    return ms;
  } finally {
    await runtime.shutdown();
  }
}

export interface BesideHangingResult {
  aloneMs: number;
  besideMs: number;
  ratio: number;
}

export async function measureCallsBesideHanging(): Promise<BesideHangingResult> {
  const good = stdio("good", stdioFixtureServerPath);
  const hang = stdio("hang", hostileServerPath, {
    env: { HOSTILE_MODE: "hang-initialize" },
    requestTimeoutMs: HANG_TIMEOUT_MS,
  });
  const aloneMs = await threeCalls([good]);
  const besideMs = await threeCalls([hang, good]);
  return { aloneMs, besideMs, ratio: besideMs / aloneMs };
}

export function formatCallsBesideHanging(result: BesideHangingResult): string {
  return [
    "Three calls to a healthy server beside one stuck in initialize (its timeout 10 s)",
    `  alone ${result.aloneMs.toFixed(0)} ms, beside it ${result.besideMs.toFixed(0)} ms, ratio ${result.ratio.toFixed(2)}`,
  ].join("\n");
}
