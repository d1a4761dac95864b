/**
 * Per-call overhead against a bare SDK `Client.callTool`, in interleaved
 * rounds so machine noise hits both alike:
 * - layer: both clients talk to in-process fixture servers over in-memory
 *   pairs, so only our connection layer differs (the < 5 % target);
 * - stdio: `connectServer` as shipped against a bare client on the SDK's stdio
 *   transport, each with its own server process (scheduling noise included).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ServerDefinitionSchema } from "@pi-mcp-adapter/core/schemas";
import { connectInMemory, createFixtureServer, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { median } from "./transport-measure.js";

const ROUNDS = 30;
const CALLS_PER_ROUND = 100;

export interface CallOverheadResult {
  calls: number;
  bareMedianUs: number;
  bareInMemoryUs: number;
  fullMedianUs: number;
  layerMedianUs: number;
  fullRatio: number;
  layerRatio: number;
  layerBestRatio: number;
  fullBestRatio: number;
}

const fixture = ServerDefinitionSchema.parse({
  name: "fixture",
  transport: "stdio",
  command: process.execPath,
  args: [stdioFixtureServerPath],
  source: { file: "bench", key: "fixture" },
});
const sdkStdio = () =>
  new StdioClientTransport({ command: process.execPath, args: [stdioFixtureServerPath] });

export async function measureCallOverhead(): Promise<CallOverheadResult> {
  const inMemoryServer = () => createFixtureServer({ tools: [{ name: "echo" }] });
  const layer = await connectServer(fixture, { transport: await connectInMemory(inMemoryServer()) });
  const bareInMemory = new Client({ name: "bench", version: "1.0.0" });
  await bareInMemory.connect(await connectInMemory(inMemoryServer()));
  const full = await connectServer(fixture);
  const bare = new Client({ name: "bench", version: "1.0.0" });
  await bare.connect(sdkStdio());
  const args = { text: "hello" };
  const variants = {
    bareInMemory: () => bareInMemory.callTool({ name: "echo", arguments: args }),
    layer: () => layer.callTool("echo", args),
    bare: () => bare.callTool({ name: "echo", arguments: args }),
    full: () => full.callTool("echo", args),
  };
  const rounds: Record<keyof typeof variants, number[]> = { bareInMemory: [], layer: [], bare: [], full: [] };
  const round = async (call: () => Promise<unknown>) => {
    const start = performance.now();
    for (let i = 0; i < CALLS_PER_ROUND; i++) await call();
    return ((performance.now() - start) * 1000) / CALLS_PER_ROUND;
  };
  for (const call of Object.values(variants)) await round(call); // warm up
  const order = Object.keys(variants) as (keyof typeof variants)[];
  for (let r = 0; r < ROUNDS; r++) {
    const rotated = [...order.slice(r % order.length), ...order.slice(0, r % order.length)];
    for (const name of rotated) rounds[name].push(await round(variants[name]));
  }
  await Promise.all([full.close(), layer.close(), bare.close(), bareInMemory.close()]);
  const bareMedianUs = median(rounds.bare);
  const bareInMemoryUs = median(rounds.bareInMemory);
  const fullMedianUs = median(rounds.full);
  const layerMedianUs = median(rounds.layer);
  return {
    calls: ROUNDS * CALLS_PER_ROUND,
    bareMedianUs,
    bareInMemoryUs,
    fullMedianUs,
    layerMedianUs,
    fullRatio: fullMedianUs / bareMedianUs,
    layerRatio: layerMedianUs / bareInMemoryUs,
    // The fastest round is least disturbed by other load on the machine.
    layerBestRatio: Math.min(...rounds.layer) / Math.min(...rounds.bareInMemory),
    fullBestRatio: Math.min(...rounds.full) / Math.min(...rounds.bare),
  };
}

export function formatCallOverhead(r: CallOverheadResult): string {
  return [
    `Per-call overhead (${r.calls} calls each, stdio echo, median of rounds):`,
    `  in memory: bare SDK ${r.bareInMemoryUs.toFixed(1)} µs, ServerConnection ${r.layerMedianUs.toFixed(1)} µs — layer ratio ${r.layerRatio.toFixed(3)}, best rounds ${r.layerBestRatio.toFixed(3)} (target < 1.05)`,
    `  stdio: bare SDK ${r.bareMedianUs.toFixed(0)} µs, ServerConnection as shipped ${r.fullMedianUs.toFixed(0)} µs — ratio ${r.fullRatio.toFixed(3)}, best rounds ${r.fullBestRatio.toFixed(3)}`,
    "  (stdio includes each server process's scheduling; ours runs in its own session, which Linux autogroup schedules as its own group)",
  ].join("\n");
}
