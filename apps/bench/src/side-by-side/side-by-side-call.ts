/**
 * A proxied call against a bare SDK client on the same stdio server
 * (server-everything's `echo`), for each adapter, inside the same real Pi:
 * `fixtures/bench-probe-extension.mjs` is loaded beside the adapter and
 * registers `bare_echo` (a bare `Client.callTool` to its own server-everything
 * process) and times every tool execution in Pi's process
 * (`tool_execution_start` → `tool_execution_end`). The scripted model
 * alternates the two calls (order flipped every pair) after a warm-up.
 */
import { readFileSync, rmSync } from "node:fs";
import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { median } from "../transport/transport-measure.js";
import type { AdapterId, BenchProject } from "./side-by-side-project.js";
import { benchProbeExtension } from "./side-by-side-project.js";

const WARMUP_PAIRS = 10;

export interface CallRow {
  pairs: number;
  bareMs: number;
  proxiedMs: number;
  ratio: number;
}

export async function measureCalls(
  projects: BenchProject[],
  pairs: number,
  /** More environment for Pi (e.g. `NODE_OPTIONS=--cpu-prof`). */
  env: NodeJS.ProcessEnv = {},
): Promise<Partial<Record<AdapterId, CallRow>>> {
  const rows: Partial<Record<AdapterId, CallRow>> = {};
  for (const p of projects) {
    if (!p.adapter.configFile) continue;
    p.configure({ everything: { command: process.execPath, args: [serverEverythingPath] } });
    const timings = p.project.join(`call-timings-${p.adapter.id}.txt`);
    rmSync(timings, { force: true }); // a project may run this more than once
    const bare = { toolCall: { name: "bare_echo", arguments: { message: "hello" } } };
    // Both adapters name it `everything_echo`; no `server`, so name resolution is part of the call.
    const proxied = {
      toolCall: { name: "mcp", arguments: { tool: "everything_echo", args: { message: "hello" } } },
    };
    const steps = Array.from({ length: WARMUP_PAIRS + pairs }, (_, i) =>
      i % 2 ? [bare, proxied] : [proxied, bare],
    ).flat();
    await p.run(steps, {
      extraArgs: ["-e", benchProbeExtension],
      env: {
        ...env,
        BENCH_BARE_COMMAND: process.execPath,
        BENCH_BARE_ARGS: JSON.stringify([serverEverythingPath]),
        BENCH_TIMINGS_FILE: timings,
      },
    });
    const lines = readFileSync(timings, "utf8").split("\n").filter(Boolean);
    const failed = lines.filter((l) => l.endsWith(" error"));
    if (failed.length || lines.length !== steps.length) {
      throw new Error(
        `${p.adapter.label}: ${lines.length} of ${steps.length} calls timed, ${failed.length} failed`,
      );
    }
    const measured = lines.slice(WARMUP_PAIRS * 2).map((l) => l.split(" "));
    const of = (tool: string) => measured.filter(([name]) => name === tool).map(([, ms]) => Number(ms));
    const bareMs = median(of("bare_echo"));
    const proxiedMs = median(of("mcp"));
    rows[p.adapter.id] = { pairs, bareMs, proxiedMs, ratio: proxiedMs / bareMs };
  }
  return rows;
}
