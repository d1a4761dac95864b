/**
 * What a call through the shared-server daemon adds: the same stdio fixture
 * server reached directly (the SDK's `StdioClientTransport`, one process of
 * its own) and through the daemon (`openSharedServer`), one call of each in
 * every pair, their order alternating, so machine noise hits both alike. The
 * figure is the median of the per-pair differences (target ≤ +0.2 ms).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openSharedServer, stopDaemon } from "@pi-mcp-adapter/daemon";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { median } from "../transport/transport-measure.js";

const PAIRS = 2000;
const WARM_UP = 200;

export interface DaemonOverheadResult {
  pairs: number;
  directMedianUs: number;
  daemonMedianUs: number;
  /** Median over pairs of (daemon − direct). */
  addedMedianUs: number;
  addedP90Us: number;
}

export async function measureDaemonCallOverhead(): Promise<DaemonOverheadResult> {
  const agentDir = await mkdtemp(path.join(tmpdir(), "bench-daemon-"));
  const env = { PATH: process.env.PATH ?? "" };
  const direct = new Client({ name: "bench", version: "1.0.0" });
  await direct.connect(
    new StdioClientTransport({ command: process.execPath, args: [stdioFixtureServerPath], env }),
  );
  const shared = new Client({ name: "bench", version: "1.0.0" });
  await shared.connect(
    await openSharedServer({
      agentDir,
      serverName: "fixture",
      spec: { command: process.execPath, args: [stdioFixtureServerPath], env },
    }),
  );
  const call = (client: Client) => client.callTool({ name: "echo", arguments: { text: "hello" } });
  const time = async (client: Client) => {
    const start = performance.now();
    await call(client);
    return (performance.now() - start) * 1000;
  };
  try {
    for (let i = 0; i < WARM_UP; i++) await Promise.all([call(direct), call(shared)]);
    const directUs: number[] = [];
    const daemonUs: number[] = [];
    const added: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const first = i % 2 === 0 ? direct : shared;
      const a = await time(first);
      const b = await time(first === direct ? shared : direct);
      const [d, s] = first === direct ? [a, b] : [b, a];
      directUs.push(d);
      daemonUs.push(s);
      added.push(s - d);
    }
    const sorted = [...added].sort((x, y) => x - y);
    return {
      pairs: PAIRS,
      directMedianUs: median(directUs),
      daemonMedianUs: median(daemonUs),
      addedMedianUs: median(added),
      addedP90Us: sorted[Math.floor(sorted.length * 0.9)] ?? 0,
    };
  } finally {
    await Promise.all([direct.close(), shared.close()]);
    await stopDaemon(agentDir);
    await rm(agentDir, { recursive: true, force: true });
  }
}

export function formatDaemonCallOverhead(r: DaemonOverheadResult): string {
  return [
    `Call through the shared-server daemon (${r.pairs} interleaved pairs, stdio echo):`,
    `  direct stdio ${r.directMedianUs.toFixed(0)} µs, through the daemon ${r.daemonMedianUs.toFixed(0)} µs (medians)`,
    `  added per call: median ${(r.addedMedianUs / 1000).toFixed(3)} ms, p90 ${(r.addedP90Us / 1000).toFixed(3)} ms (target median ≤ +0.2 ms)`,
  ].join("\n");
}
