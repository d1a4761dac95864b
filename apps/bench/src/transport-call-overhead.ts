/**
 * Per-call overhead: `ServerConnection.callTool` against a bare SDK
 * `Client.callTool`, both talking to the same kind of stdio server in this
 * run, in interleaved rounds so machine noise hits both alike.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ServerDefinitionSchema } from "@pi-mcp-adapter/core";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { median } from "./transport-measure.js";

const ROUNDS = 40;
const CALLS_PER_ROUND = 100;

export interface CallOverheadResult {
  calls: number;
  bareMedianUs: number;
  oursMedianUs: number;
  ratio: number;
}

export async function measureCallOverhead(): Promise<CallOverheadResult> {
  const ours = await connectServer(
    ServerDefinitionSchema.parse({
      name: "fixture",
      transport: "stdio",
      command: process.execPath,
      args: [stdioFixtureServerPath],
      source: { file: "bench", key: "fixture" },
    }),
  );
  const bare = new Client({ name: "bench", version: "1.0.0" });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [stdioFixtureServerPath] }));
  const args = { text: "hello" };
  const round = async (call: () => Promise<unknown>) => {
    const start = performance.now();
    for (let i = 0; i < CALLS_PER_ROUND; i++) await call();
    return ((performance.now() - start) * 1000) / CALLS_PER_ROUND;
  };
  const oursRounds: number[] = [];
  const bareRounds: number[] = [];
  // Warm both paths first (JIT, validators).
  await round(() => ours.callTool("echo", args));
  await round(() => bare.callTool({ name: "echo", arguments: args }));
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      bareRounds.push(await round(() => bare.callTool({ name: "echo", arguments: args })));
      oursRounds.push(await round(() => ours.callTool("echo", args)));
    } else {
      oursRounds.push(await round(() => ours.callTool("echo", args)));
      bareRounds.push(await round(() => bare.callTool({ name: "echo", arguments: args })));
    }
  }
  await ours.close();
  await bare.close();
  const bareMedianUs = median(bareRounds);
  const oursMedianUs = median(oursRounds);
  return { calls: ROUNDS * CALLS_PER_ROUND, bareMedianUs, oursMedianUs, ratio: oursMedianUs / bareMedianUs };
}

export function formatCallOverhead(r: CallOverheadResult): string {
  return [
    `Per-call overhead (${r.calls} calls each, stdio echo):`,
    `  bare SDK Client.callTool: ${r.bareMedianUs.toFixed(0)} µs/call (median of rounds)`,
    `  ServerConnection.callTool: ${r.oursMedianUs.toFixed(0)} µs/call`,
    `  ratio ours/bare: ${r.ratio.toFixed(3)} (target < 1.05)`,
  ].join("\n");
}
