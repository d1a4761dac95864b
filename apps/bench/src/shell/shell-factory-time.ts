/**
 * Target 2: time from calling the extension factory until the proxy tool is
 * registered, with every catalog server configured and cached, and the child
 * processes started meanwhile (must be none). The factory registers its tools
 * once the startup snapshot is read (whether to register the proxy, which
 * direct tools), and Pi awaits it. Baseline: a bare factory that registers
 * one tool with the same definition, in interleaved rounds. A fresh Node
 * process also measures the cold path (module import + factory).
 */
import { execFileSync } from "node:child_process";
import { median } from "../transport/transport-measure.js";
import { createShellHome, loadCatalogServers, startedServers } from "./shell-home.js";
import { headlessContext, type RecordedTool, RecordingPi } from "./shell-recording-pi.js";
import { liveChildren, spawnCount } from "./shell-spawn-counter.js";

const ROUNDS = 10;
const CALLS_PER_ROUND = 10;
const COLD_RUNS = 5;
const SESSION_RUNS = 5;

type Factory = (pi: never) => void | Promise<void>;

export interface FactoryTimeResult {
  calls: number;
  oursMedianUs: number;
  bareMedianUs: number;
  oursP99Us: number;
  /** The whole factory call until its promise resolves (flag, tools, commands, handlers). */
  oursWholeUs: number;
  bareWholeUs: number;
  /** `session_start` until a search over the cached catalog is answered (median). */
  sessionMs: number;
  sessionHits: number;
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
    await extension(first as never);
    const bare = bareFactory(first.tools[0]!);
    const ours: number[] = [];
    const base: number[] = [];
    const oursWhole: number[] = [];
    const baseWhole: number[] = [];
    const once = async (factory: Factory): Promise<void> => {
      const pi = new RecordingPi();
      const start = performance.now();
      await factory(pi as never);
      const end = performance.now();
      const mine = factory === bare ? [base, baseWhole] : [ours, oursWhole];
      mine[0]!.push((pi.firstToolAt! - start) * 1000);
      mine[1]!.push((end - start) * 1000);
    };
    for (let r = 0; r < ROUNDS; r++) {
      const order: Factory[] = r % 2 ? [bare, extension as Factory] : [extension as Factory, bare];
      for (const factory of order) {
        for (let i = 0; i < CALLS_PER_ROUND; i++) await once(factory);
      }
    }
    const session = await sessionToFirstSearch(extension as Factory, home.cwd);
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
      oursWholeUs: median(oursWhole),
      bareWholeUs: median(baseWhole),
      sessionMs: session.ms,
      sessionHits: session.hits,
      coldImportMs: median(cold.map((c) => c.importMs)),
      coldFactoryMs: median(cold.map((c) => c.factoryMs)),
      spawned,
    };
  } finally {
    home.close();
  }
}

/** `session_start` then `mcp({search})`: config, warm cache and search index, no server started. */
async function sessionToFirstSearch(extension: Factory, cwd: string): Promise<{ ms: number; hits: number }> {
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < SESSION_RUNS; i++) {
    const pi = new RecordingPi();
    await extension(pi as never);
    const ctx = headlessContext(cwd);
    const start = performance.now();
    await pi.fire("session_start", ctx);
    const result = await pi.tools[0]!.execute(
      "bench",
      { search: "list pull requests" },
      undefined,
      undefined,
      ctx,
    );
    times.push(performance.now() - start);
    hits = Number(result.details?.total ?? 0);
    await pi.fire("session_shutdown", ctx);
  }
  return { ms: median(times), hits };
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
    await factory(pi);
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
    `   whole factory call until resolved (snapshot read, tools, commands, handlers): ${r.oursWholeUs.toFixed(2)} µs vs bare ${r.bareWholeUs.toFixed(2)} µs (ratio ${(r.oursWholeUs / r.bareWholeUs).toFixed(2)})`,
    `   session_start → first search answered from the warm cache: ${r.sessionMs.toFixed(1)} ms (median of ${SESSION_RUNS}, ${r.sessionHits} hits)`,
    `   cold, fresh Node process (median of ${COLD_RUNS}): import ${r.coldImportMs.toFixed(1)} ms + factory ${r.coldFactoryMs.toFixed(2)} ms`,
    `   child processes started by the factory calls and sessions: ${r.spawned} (must be 0)`,
  ].join("\n");
}
