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
}

/** The extension entry Pi loads, resolved like a consumer would resolve it. */
export function extensionEntryUrl(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("pi-mcp-adapter/package.json");
  return pathToFileURL(resolve(pkg, "..", "dist/pi/extension.js")).href;
}

const CHILD = `
const { performance } = await import("node:perf_hooks");
const start = performance.now();
await import(process.argv[1]);
const ms = performance.now() - start;
process.stdout.write(JSON.stringify({ ms }));
`;

function timeProcess(args: string[]): { wallMs: number; stdout: string } {
  const start = performance.now();
  const stdout = execFileSync(process.execPath, args, { encoding: "utf8" });
  return { wallMs: performance.now() - start, stdout };
}

export function measureExtensionImport(runs = 15): ImportTimeResult {
  const entry = extensionEntryUrl();
  const bare: number[] = [];
  const extension: number[] = [];
  const inside: number[] = [];
  // Warm the file system cache once so the first measured run is not the odd one out.
  timeProcess(["--input-type=module", "-e", CHILD, entry]);
  for (let i = 0; i < runs; i++) {
    bare.push(timeProcess(["-e", ""]).wallMs);
    const run = timeProcess(["--input-type=module", "-e", CHILD, entry]);
    extension.push(run.wallMs);
    inside.push(JSON.parse(run.stdout).ms);
  }
  const bareMs = median(bare);
  const extensionMs = median(extension);
  return { runs, bareMs, extensionMs, addedMs: extensionMs - bareMs, importMs: median(inside) };
}

export function formatExtensionImport(r: ImportTimeResult): string {
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  return [
    `Import of the extension entry (dist/pi/extension.js) in a fresh process, median of ${r.runs}:`,
    `  node -e "" ${ms(r.bareMs)}; node importing the entry ${ms(r.extensionMs)}; added ${ms(r.addedMs)} (import() itself ${ms(r.importMs)})`,
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(formatExtensionImport(measureExtensionImport(Number(process.argv[2] ?? 15))));
}
