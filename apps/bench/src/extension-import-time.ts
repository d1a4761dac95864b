/**
 * What loading the Pi extension entry costs a fresh Node process: the built
 * `pi-mcp-adapter/extension` (dist/pi/extension.js, what Pi imports at start)
 * imported by `node` in a new process, against a bare `node -e ""`, median of
 * interleaved runs.
 *
 * Run on its own: `node --import tsx src/extension-import-time.ts [runs]`.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./transport-measure.js";

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
}
