/**
 * Target 2: time from calling the extension factory until the proxy tool is
 * registered, with every catalog server configured and cached, and the child
 * processes started meanwhile (must be none). Baseline: a bare factory that
 * registers one tool with the same definition, in interleaved rounds. A fresh
 * Node process also measures the cold path (module import + factory).
 */
import { execFileSync } from "node:child_process";
import { createShellHome, loadCatalogServers, startedServers } from "./shell-home.js";
import { type RecordedTool, RecordingPi } from "./shell-recording-pi.js";
import { liveChildren, spawnCount } from "./shell-spawn-counter.js";
import { median } from "./transport-measure.js";

const ROUNDS = 20;
const CALLS_PER_ROUND = 200;
const COLD_RUNS = 5;

type Factory = (pi: never) => void;

export interface FactoryTimeResult {
  calls: number;
  oursMedianUs: number;
  bareMedianUs: number;
  oursP99Us: number;
  coldImportMs: number;
  coldFactoryMs: number;
  spawned: number;
}

export async function measureFactoryTime(): Promise<FactoryTimeResult> {
  const home = await createShellHome(loadCatalogServers());
  try {
    const cold = coldStart();
    const { default: extension } = await import("pi-mcp-adapter/extension");
    const spawnedBefore = spawnCount();
    const childrenBefore = liveChildren().length;
    const first = new RecordingPi();
    extension(first as never);
    const bare = bareFactory(first.tools[0]!);
    const once = (factory: Factory): number => {
      const pi = new RecordingPi();
      const start = performance.now();
      factory(pi as never);
      return (pi.firstToolAt! - start) * 1000;
    };
    const ours: number[] = [];
    const base: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const order: [Factory, number[]][] = [
        [extension as Factory, ours],
        [bare, base],
      ];
      if (r % 2) order.reverse();
      for (const [factory, samples] of order) {
        for (let i = 0; i < CALLS_PER_ROUND; i++) samples.push(once(factory));
      }
    }
    const spawned = Math.max(
      spawnCount() - spawnedBefore,
      liveChildren().length - childrenBefore,
      startedServers(home),
    );
    const sorted = [...ours].sort((a, b) => a - b);
    return {
      calls: ours.length,
      oursMedianUs: median(ours),
      bareMedianUs: median(base),
      oursP99Us: sorted[Math.floor(sorted.length * 0.99)]!,
      coldImportMs: median(cold.map((c) => c.importMs)),
      coldFactoryMs: median(cold.map((c) => c.factoryMs)),
      spawned,
    };
  } finally {
    home.close();
  }
}

function bareFactory(tool: RecordedTool): Factory {
  return (pi: never) => {
    (pi as RecordingPi).registerTool({
      name: tool.name,
      label: tool.label,
      description: tool.description,
      parameters: tool.parameters,
      execute: async () => ({ content: [] }),
    });
  };
}

/** Import + factory in fresh Node processes (the bench's own children, outside the timed window). */
function coldStart(): { importMs: number; factoryMs: number }[] {
  const url = import.meta.resolve("pi-mcp-adapter/extension");
  const script = `
    const start = performance.now();
    const { default: factory } = await import(${JSON.stringify(url)});
    const imported = performance.now();
    let registered;
    const pi = { registerTool() { registered ??= performance.now(); }, registerCommand() {}, registerFlag() {},
      getFlag() {}, on() {}, events: { on() { return () => {}; }, emit() {} } };
    factory(pi);
    console.log(JSON.stringify({ importMs: imported - start, factoryMs: registered - imported }));`;
  const runs: { importMs: number; factoryMs: number }[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    runs.push(JSON.parse(out.trim().split("\n").at(-1)!) as { importMs: number; factoryMs: number });
  }
  return runs;
}

export function formatFactoryTime(r: FactoryTimeResult): string {
  return [
    `2. Extension factory to first registerTool (38 servers configured, warm cache, ${r.calls} calls each):`,
    `   bare factory (one registerTool, same definition): ${r.bareMedianUs.toFixed(2)} µs (median)`,
    `   pi-mcp-adapter factory: ${r.oursMedianUs.toFixed(2)} µs (median), p99 ${r.oursP99Us.toFixed(2)} µs`,
    `   ratio ours/bare: ${(r.oursMedianUs / r.bareMedianUs).toFixed(2)}; target < 50 ms: ${r.oursMedianUs < 50_000 ? "met" : "MISSED"}`,
    `   cold, fresh Node process (median of ${COLD_RUNS}): import ${r.coldImportMs.toFixed(1)} ms + factory ${r.coldFactoryMs.toFixed(2)} ms`,
    `   child processes started by the factory calls: ${r.spawned} (must be 0)`,
  ].join("\n");
}
