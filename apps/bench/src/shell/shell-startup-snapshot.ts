/**
 * Target: the startup snapshot (config + metadata cache, read when the
 * extension loads) with 38 servers and a warm cache in < 50 ms, starting no
 * child process. Baseline, interleaved in the same run: reading and parsing
 * the same two files with nothing else (the I/O floor of any snapshot).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadStartupSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { median } from "../transport/transport-measure.js";
import { createShellHome, loadCatalogServers, startedServers } from "./shell-home.js";
import { liveChildren, spawnCount } from "./shell-spawn-counter.js";

const ROUNDS = 30;

export interface StartupSnapshotResult {
  servers: number;
  cachedTools: number;
  missing: number;
  oursMedianMs: number;
  oursP90Ms: number;
  floorMedianMs: number;
  spawned: number;
}

export async function measureStartupSnapshot(): Promise<StartupSnapshotResult> {
  const home = await createShellHome(loadCatalogServers());
  try {
    const spawnedBefore = spawnCount();
    const childrenBefore = liveChildren().length;
    const floor = async () => {
      JSON.parse(await readFile(join(home.agentDir, "mcp-adapter.json"), "utf8"));
      JSON.parse(await readFile(home.cacheFile, "utf8"));
    };
    const ours = () => loadStartupSnapshot({ cwd: home.cwd });
    // One of each outside the timing: module code and file pages warm up alike.
    await floor();
    const first = await ours();
    const oursMs: number[] = [];
    const floorMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? [floor, ours] : [ours, floor];
      for (const run of order) {
        const start = performance.now();
        await run();
        (run === ours ? oursMs : floorMs).push(performance.now() - start);
      }
    }
    const sorted = [...oursMs].sort((a, b) => a - b);
    return {
      servers: first.servers.length,
      cachedTools: first.servers.reduce((n, s) => n + (s.metadata?.length ?? 0), 0),
      missing: first.missing.length,
      oursMedianMs: median(oursMs),
      oursP90Ms: sorted[Math.floor(sorted.length * 0.9)]!,
      floorMedianMs: median(floorMs),
      spawned: Math.max(
        spawnCount() - spawnedBefore,
        liveChildren().length - childrenBefore,
        startedServers(home),
      ),
    };
  } finally {
    home.close();
  }
}

export function formatStartupSnapshot(r: StartupSnapshotResult): string {
  return [
    `Startup snapshot (config + warm metadata cache, ${r.servers} servers, ${r.cachedTools} cached tools, ${r.missing} missing; median of ${ROUNDS}):`,
    `   read + JSON.parse of the same two files (floor): ${r.floorMedianMs.toFixed(2)} ms`,
    `   loadStartupSnapshot: ${r.oursMedianMs.toFixed(2)} ms (p90 ${r.oursP90Ms.toFixed(2)} ms), ratio to floor ${(r.oursMedianMs / r.floorMedianMs).toFixed(1)}`,
    `   target < 50 ms: ${r.oursMedianMs < 50 ? "met" : "MISSED"}; child processes started: ${r.spawned} (must be 0)`,
  ].join("\n");
}
