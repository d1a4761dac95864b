/**
 * What loading the Pi extension entry costs a fresh Node process: the built
 * `pi-mcp-adapter/extension` (dist/pi/extension.js, what Pi imports at start)
 * imported by `node` in a new process, against a bare `node -e ""`, median of
 * interleaved runs.
 *
 * `measureColdStart` adds the factory: 38 lazy servers, no metadata cache,
 * import + factory until the first `registerTool` in a fresh process (needs
 * the eval catalog, `PI_MCP_EVAL_DIR`).
 *
 * Run on its own: `node --import tsx src/extension-import-time.ts [runs]`.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createShellHome, loadCatalogServers } from "./shell/shell-home.js";
import { median } from "./transport/transport-measure.js";

export interface ImportTimeResult {
  runs: number;
  /** Median wall time of `node -e ""` (ms). */
  bareMs: number;
  /** Median wall time of a process that imports the extension entry and exits (ms). */
  extensionMs: number;
  /** extensionMs − bareMs. */
  addedMs: number;
  /** Median time spent inside the `import()` itself, measured in the child (ms). */
  importMs: number;
  /** Median CPU time (user + system) of the bare process and of the importing one, and their difference (ms). */
  bareCpuMs: number;
  extensionCpuMs: number;
  addedCpuMs: number;
}

/** The extension entry Pi loads, resolved like a consumer would resolve it. */
export function extensionEntryUrl(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("pi-mcp-adapter/package.json");
  return pathToFileURL(resolve(pkg, "..", "dist/pi/extension.js")).href;
}

// The child reports the import's own wall time and the process's CPU time at the end (start-up included),
// which a loaded machine disturbs less than wall time.
const CHILD = `
const start = performance.now();
if (process.argv[1]) await import(process.argv[1]);
const ms = performance.now() - start;
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

function run(entry: string): { wallMs: number; importMs: number; cpuMs: number } {
  const start = performance.now();
  const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", CHILD, entry], {
    encoding: "utf8",
  });
  const wallMs = performance.now() - start;
  const { ms, cpuMs } = JSON.parse(stdout) as { ms: number; cpuMs: number };
  return { wallMs, importMs: ms, cpuMs };
}

export function measureExtensionImport(runs = 15): ImportTimeResult {
  const entry = extensionEntryUrl();
  const bare: ReturnType<typeof run>[] = [];
  const extension: ReturnType<typeof run>[] = [];
  // Warm the file system cache once so the first measured run is not the odd one out.
  run(entry);
  for (let i = 0; i < runs; i++) {
    bare.push(run(""));
    extension.push(run(entry));
  }
  const bareMs = median(bare.map((r) => r.wallMs));
  const extensionMs = median(extension.map((r) => r.wallMs));
  const bareCpuMs = median(bare.map((r) => r.cpuMs));
  const extensionCpuMs = median(extension.map((r) => r.cpuMs));
  return {
    runs,
    bareMs,
    extensionMs,
    addedMs: extensionMs - bareMs,
    importMs: median(extension.map((r) => r.importMs)),
    bareCpuMs,
    extensionCpuMs,
    addedCpuMs: extensionCpuMs - bareCpuMs,
  };
}

export interface ColdStartResult {
  runs: number;
  servers: number;
  /** Median ms of the import and of the factory until its first `registerTool`, in a fresh process. */
  importMs: number;
  factoryMs: number;
}

/**
 * Pi's start-up share of ours with the eval catalog's 38 servers configured
 * (lazy, nothing connects) and no metadata cache: a fresh process imports the
 * extension entry and runs the factory against a stand-in for Pi's API.
 */
export async function measureColdStart(runs = 7): Promise<ColdStartResult> {
  const servers = loadCatalogServers();
  const home = await createShellHome(servers);
  try {
    rmSync(home.cacheFile, { force: true });
    const script = `
      const start = performance.now();
      const { default: factory } = await import(process.argv[1]);
      const imported = performance.now();
      let registered;
      const pi = { registerTool() { registered ??= performance.now(); }, registerCommand() {}, registerFlag() {},
        getFlag() {}, on() {}, events: { on() { return () => {}; }, emit() {} } };
      await factory(pi);
      process.stdout.write(JSON.stringify({ importMs: imported - start, factoryMs: registered - imported }));`;
    const samples: { importMs: number; factoryMs: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script, extensionEntryUrl()], {
        encoding: "utf8",
      });
      samples.push(JSON.parse(out));
    }
    return {
      runs,
      servers: servers.length,
      importMs: median(samples.map((x) => x.importMs)),
      factoryMs: median(samples.map((x) => x.factoryMs)),
    };
  } finally {
    home.close();
  }
}

export function formatColdStart(r: ColdStartResult): string {
  const total = r.importMs + r.factoryMs;
  return `Cold start, ${r.servers} lazy servers, no metadata cache (fresh process, median of ${r.runs}): import ${r.importMs.toFixed(0)} ms + factory ${r.factoryMs.toFixed(0)} ms = ${total.toFixed(0)} ms (target ≤ 100 ms: ${total <= 100 ? "met" : "MISSED"})`;
}

export function formatExtensionImport(r: ImportTimeResult): string {
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  return [
    `Import of the extension entry (dist/pi/extension.js) in a fresh process, median of ${r.runs}:`,
    `  wall: bare node ${ms(r.bareMs)}, importing the entry ${ms(r.extensionMs)}, added ${ms(r.addedMs)} (the import() itself ${ms(r.importMs)})`,
    `  CPU:  bare node ${ms(r.bareCpuMs)}, importing the entry ${ms(r.extensionCpuMs)}, added ${ms(r.addedCpuMs)}`,
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(formatExtensionImport(measureExtensionImport(Number(process.argv[2] ?? 15))));
  console.log(formatColdStart(await measureColdStart()));
}
