/**
 * Our share of a real Pi 1.6 start-up, timed inside Pi (`fixtures/timed-extension.mjs`): 38 lazy servers,
 * warm metadata cache, json mode, Pi alone and this checkout (and `--vs DIR`, another checkout's build)
 * interleaved round by round. Per build, medians of: importing the extension entry, its factory, the handlers
 * Pi awaits before the first model request, garbage collection, and the main thread's busy time from Pi
 * loading the extension to that request — and, paired with Pi alone in the same round, the busy time and the
 * request's time the build adds. Pi's start-up is CPU-bound, so busy time is the figure a change moves; it is
 * far steadier than the side-by-side start-up rows (wall time from outside, whose noise on this machine is
 * ±20 ms), which stay the target's measure.
 *
 * Run: `PI_MCP_EVAL_DIR=… node --import tsx src/startup-share.ts [rounds] [--vs DIR]`.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadEvalData } from "./eval-data.js";
import { loadCatalogServers } from "./shell/shell-home.js";
import {
  ADAPTERS,
  type BenchProject,
  catalogEntries,
  createBenchProject,
  pi16,
  searchStep,
} from "./side-by-side/side-by-side-project.js";
import { median } from "./transport/transport-measure.js";

interface Timed {
  importMs: number;
  factoryMs: number;
  handlersMs: number;
  gcMs: number;
  busyMs: number;
  requestAtMs: number;
}

const FIGURES = ["importMs", "factoryMs", "handlersMs", "gcMs", "busyMs"] as const;
const fixture = fileURLToPath(new URL("../fixtures/timed-extension.mjs", import.meta.url));
const entry = (root: string) =>
  pathToFileURL(join(root, "packages/pi-mcp-adapter/dist/pi/extension.js")).href;

interface Build {
  label: string;
  /** The extension the fixture imports; none for Pi alone. */
  extension?: string;
  project: BenchProject;
  log: string;
  runs: Timed[];
}

const args = process.argv.slice(2);
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--vs") ?? 15);
const vs = args.includes("--vs") ? args[args.indexOf("--vs") + 1] : undefined;
const servers = loadCatalogServers(loadEvalData().dir);
const host = pi16();
const checkout = fileURLToPath(new URL("../../..", import.meta.url));
const specs = [
  { label: "Pi alone" },
  { label: "this checkout", extension: entry(checkout) },
  ...(vs ? [{ label: `before (${vs})`, extension: entry(vs) }] : []),
];

const builds: Build[] = [];
for (const spec of specs) {
  // Every build with ours' config and cache files, so Pi alone starts in the same agent dir contents.
  const project = await createBenchProject({ ...ADAPTERS.ours, extension: fixture }, host);
  project.configure(catalogEntries(servers, project.project.pidDir));
  builds.push({ ...spec, project, log: project.project.join("timed.log"), runs: [] });
}
const env = (b: Build) => ({
  env: { TIMED_LOG: b.log, ...(b.extension ? { TIMED_EXTENSION: b.extension } : {}) },
});
const lastLine = (b: Build) => JSON.parse(readFileSync(b.log, "utf8").trim().split("\n").at(-1)!) as Timed;

try {
  // Warm caches (one search lists every server) and one untimed start each.
  for (const b of builds) {
    if (b.extension) await b.project.run([searchStep("warm up")], env(b));
    await b.project.run([], env(b));
    rmSync(b.log, { force: true });
  }
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < builds.length; k++) {
      const b = builds[(r + k) % builds.length]!;
      await b.project.run([], env(b));
      b.runs.push(lastLine(b));
    }
    console.log(
      `round ${r + 1}/${rounds}: ${builds.map((b) => `${b.label} busy ${b.runs.at(-1)!.busyMs.toFixed(1)}`).join(", ")}`,
    );
  }
  const alone = builds[0]!.runs;
  console.log(`\nInside Pi 1.6, 38 lazy servers, warm cache, medians of ${rounds} interleaved rounds (ms):`);
  console.log(
    `${"".padEnd(36)}${[...FIGURES, "added busy", "added request"].map((f) => f.padStart(14)).join("")}`,
  );
  for (const b of builds) {
    const cells = FIGURES.map((f) => median(b.runs.map((t) => t[f])).toFixed(1));
    const paired = (f: "busyMs" | "requestAtMs") =>
      median(b.runs.map((t, i) => t[f] - alone[i]![f])).toFixed(1);
    cells.push(paired("busyMs"), paired("requestAtMs"));
    console.log(`${b.label.slice(0, 35).padEnd(36)}${cells.map((c) => c.padStart(14)).join("")}`);
  }
} finally {
  for (const b of builds) await b.project.close();
}
