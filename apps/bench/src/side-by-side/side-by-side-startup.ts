/**
 * Pi start-up to the first model request with 38 lazy servers, cold metadata
 * cache (deleted before every run) and warm cache, for Pi alone, this
 * checkout and the reference, interleaved round by round (the order rotates);
 * and the child processes each starts before that first request (logged by
 * a preload in Pi and every descendant, minus what Pi alone starts).
 */

import { median } from "../transport/transport-measure.js";
import type { AdapterId, BenchProject } from "./side-by-side-project.js";
import { searchStep } from "./side-by-side-project.js";

export type CacheState = "cold" | "warm";

export interface StartupResult {
  runs: number;
  /** Median ms to the first model request, per cache state and adapter. */
  medianMs: Record<CacheState, Record<AdapterId, number>>;
  /** Median over the rounds of each adapter's ms minus Pi alone's in the same round. */
  pairedAddedMs: Record<CacheState, Record<AdapterId, number>>;
  /** Child processes started before the first model request, per cache state and adapter (Pi alone's subtracted). */
  spawned: Record<CacheState, Record<AdapterId, number>>;
  /** Servers with cached metadata once warmed, per adapter. */
  cached: Record<AdapterId, number>;
}

/** Fills each adapter's metadata cache: a search makes both list every server (and the reference lists them at start-up). */
export async function warmCaches(projects: BenchProject[], servers: number): Promise<void> {
  for (const p of projects) {
    if (!p.adapter.cacheFile || p.cachedServers() >= servers) continue;
    await p.run([searchStep("warm up")]);
    if (p.cachedServers() < servers) {
      throw new Error(`${p.adapter.label}: ${p.cachedServers()} of ${servers} servers cached after a search`);
    }
  }
}

export async function measureStartup(
  projects: BenchProject[],
  servers: number,
  runs: number,
  log: (line: string) => void,
): Promise<StartupResult> {
  const medianMs = {} as StartupResult["medianMs"];
  const pairedAddedMs = {} as StartupResult["pairedAddedMs"];
  const spawned = {} as StartupResult["spawned"];
  for (const state of ["cold", "warm"] as const) {
    if (state === "warm") await warmCaches(projects, servers);
    const prepare = (p: BenchProject) => {
      if (state === "cold") p.clearCache();
      p.clearPids();
    };
    // Processes first, in runs of their own: the logging preload costs start-up time.
    const counts = {} as Record<AdapterId, number>;
    for (const p of projects) {
      prepare(p);
      const run = await p.run([], { countSpawns: true });
      counts[p.adapter.id] = run.spawned?.length ?? 0;
    }
    const floor = counts.none ?? 0;
    spawned[state] = Object.fromEntries(
      projects.map((p) => [p.adapter.id, counts[p.adapter.id] - floor]),
    ) as Record<AdapterId, number>;

    const times = Object.fromEntries(projects.map((p) => [p.adapter.id, [] as number[]]));
    // One untimed round: file caches and Node's compile cache warm up alike.
    for (const p of projects) {
      prepare(p);
      await p.run([]);
    }
    for (let r = 0; r < runs; r++) {
      for (let k = 0; k < projects.length; k++) {
        const p = projects[(r + k) % projects.length]!;
        prepare(p);
        times[p.adapter.id]!.push((await p.run([])).ms);
      }
      log(
        `  start-up ${state} round ${r + 1}/${runs}: ${projects.map((p) => `${p.adapter.id} ${times[p.adapter.id]!.at(-1)!.toFixed(0)} ms`).join(", ")}`,
      );
    }
    medianMs[state] = Object.fromEntries(
      projects.map((p) => [p.adapter.id, median(times[p.adapter.id]!)]),
    ) as Record<AdapterId, number>;
    const alone = times.none;
    if (alone)
      pairedAddedMs[state] = Object.fromEntries(
        projects.map((p) => [p.adapter.id, median(times[p.adapter.id]!.map((ms, i) => ms - alone[i]!))]),
      ) as Record<AdapterId, number>;
  }
  const cached = Object.fromEntries(projects.map((p) => [p.adapter.id, p.cachedServers()])) as Record<
    AdapterId,
    number
  >;
  return { runs, medianMs, pairedAddedMs, spawned, cached };
}
