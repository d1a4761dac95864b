/**
 * Where a Pi start-up's share of ours goes, phase by phase, in fresh Node
 * processes (the state Pi is in when it loads the extension): importing the
 * built extension entry, the factory until it resolves, `session_start`,
 * `before_agent_start` and `before_provider_request` (the handlers Pi awaits
 * before its first model request goes out), the CPU time of the work ours leaves queued behind them until
 * the event loop is idle, the first `mcp({search})` and the median of five
 * more (`nextSearch`). 38 lazy eval servers, cold
 * (no metadata cache) and warm cache, medians of interleaved runs.
 *
 * `--vs DIR` runs another checkout's built tree (`DIR/packages/…/dist`) in
 * the same rounds, first, and prints this checkout's to-request time over
 * it (median of per-round ratios).
 *
 * `--cpu-prof DIR` writes a V8 profile (100 µs samples) of each child into DIR (for
 * `node --import tsx src/cpu-profile-summary.ts DIR/<file>`).
 *
 * `--no-idle` sends the first search right after `before_provider_request`
 * (a model that answers at once, like the scripted one), so what ours left
 * queued (the search warm-up) runs beside it; `--warm-only` skips the cold
 * cache runs; `--no-index` removes the search index kept beside the cache
 * (`mcp-search-index.bin`) before every child: a first search after the
 * tools changed.
 *
 * Run: `PI_MCP_EVAL_DIR=… node --import tsx src/startup-phases.ts [runs] [--vs DIR] [--cpu-prof DIR] [--no-idle] [--warm-only] [--no-index]`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PI_STAND_IN } from "@pi-mcp-adapter/test-kit";
import { extensionEntryUrl } from "./extension-import-time.js";
import { createShellHome, loadCatalogServers } from "./shell/shell-home.js";
import { median } from "./transport/transport-measure.js";

export const PHASES = [
  "import",
  "factory",
  "sessionStart",
  "beforeAgent",
  "idle",
  "firstSearch",
  "cpuToRequest",
  "cpuFirstSearch",
  "nextSearch",
] as const;
export type Phase = (typeof PHASES)[number];
export type Phases = Record<Phase, number>;

// Pi's API stood in for by test-kit's `PI_STAND_IN` (handlers run as Pi runs them, awaited in turn). `idle` is
// the CPU time (ms) the process spends after before_agent_start until its event loop is idle: work ours
// left queued behind the handlers, which on Pi's one thread runs before or beside its first request.
const CHILD = `
const marks = [];
const mark = () => { marks.push(Number(process.hrtime.bigint() / 1000n)); return performance.now(); };
${PI_STAND_IN}
const idle = () => new Promise((done) => {
  let quiet = 0;
  let last = performance.eventLoopUtilization();
  const check = () => {
    const now = performance.eventLoopUtilization();
    quiet = performance.eventLoopUtilization(now, last).utilization < 0.02 ? quiet + 1 : 0;
    last = now;
    if (quiet >= 3) done(); else setTimeout(check, 10);
  };
  setTimeout(check, 10);
});
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const t0 = mark();
const { default: factory } = await import(process.argv[1]);
const t1 = mark();
await factory(pi);
const t2 = mark();
await fire("session_start", ctx);
const t3 = mark();
await fire("before_agent_start", ctx);
await fire("before_provider_request", ctx);
const t4 = mark();
const c4 = cpu();
const cpuToRequest = c4;
// The request is out and the model answers: what the extension leaves for that moment runs now.
await fire("after_provider_response", ctx);
// --no-idle: the first search comes at once, as from a model that answers instantly (scripted).
if (process.argv[3] !== "no-idle") await idle();
const idleCpu = cpu() - c4;
const t5 = mark();
const proxy = tools.find((t) => t.name === "mcp");
const c5 = cpu();
await proxy.execute("x", { search: "list pull requests" }, undefined, undefined, ctx);
const cpuFirstSearch = cpu() - c5;
const t6 = mark();
const next = [];
for (const q of ["create an issue", "send a message", "read a file", "query the database", "list pull requests"]) {
  const s = performance.now();
  await proxy.execute("x", { search: q }, undefined, undefined, ctx);
  next.push(performance.now() - s);
}
next.sort((a, b) => a - b);
await fire("session_shutdown", ctx);
process.stdout.write(JSON.stringify({ import: t1 - t0, factory: t2 - t1, sessionStart: t3 - t2,
  beforeAgent: t4 - t3, idle: idleCpu, firstSearch: t6 - t5, cpuToRequest, cpuFirstSearch, nextSearch: next[2], marks }));
`;

function child(
  entry: string,
  cwd: string,
  profileDir: string | undefined,
  name: string,
  noIdle = false,
): Phases {
  // With a profile, the phase boundaries (µs, the profile's clock) go beside it for `cpu-profile-summary.ts --window`.
  const flags = profileDir
    ? ["--cpu-prof", "--cpu-prof-dir", profileDir, "--cpu-prof-name", `${name}.cpuprofile`]
    : [];
  // Run in the session's directory, as Pi is: the extension's startup snapshot (read from the process's
  // directory) is then the session's, and the session's runtime reuses its metadata cache.
  const out = execFileSync(
    process.execPath,
    [...flags, "--input-type=module", "-e", CHILD, entry, cwd, ...(noIdle ? ["no-idle"] : [])],
    {
      cwd,
      encoding: "utf8",
    },
  );
  const phases = JSON.parse(out) as Phases & { marks: number[] };
  if (profileDir) writeFileSync(resolve(profileDir, `${name}.marks.json`), JSON.stringify(phases.marks));
  return phases;
}

/** One build of the extension: the workspace's, or another checkout's built tree (`--vs DIR`). */
export interface PhasesBuild {
  label: string;
  entry: string;
}

export interface StartupPhasesResult {
  runs: number;
  builds: { label: string; cold: Phases; warm: Phases }[];
  /**
   * Per cache state and figure, for each build after the first: the median over rounds of its figure
   * over the first build's in the same round.
   */
  ratios: Record<"cold" | "warm", Record<RatioFigure, number>[]>;
}

const RATIO_FIGURES = [
  "toRequest",
  "cpuToRequest",
  "idle",
  "firstSearch",
  "cpuFirstSearch",
  "nextSearch",
] as const;
type RatioFigure = (typeof RATIO_FIGURES)[number];

/**
 * The warm cache file as `build` writes it: a build from before the cache kept its tools' pin fingerprints
 * (its catalog does not know them) writes the same lines without them.
 */
function cacheAsWrittenBy(build: PhasesBuild, text: string): string {
  const catalog = new URL("../../../catalog/dist/index.js", build.entry);
  const knowsFingerprints = readFileSync(catalog, "utf8").includes("adoptFingerprints");
  return knowsFingerprints ? text : text.replace(/,"fingerprints":\{[^}]*\}/g, "");
}

/** Import → `before_agent_start` done: what Pi waits for before its first model request. */
export function toRequest(p: Phases): number {
  return p.import + p.factory + p.sessionStart + p.beforeAgent;
}

export async function measureStartupPhases(
  runs = 9,
  options: {
    profileDir?: string;
    builds?: PhasesBuild[];
    noIdle?: boolean;
    warmOnly?: boolean;
    noIndex?: boolean;
  } = {},
): Promise<StartupPhasesResult> {
  const home = await createShellHome(loadCatalogServers());
  const builds = options.builds ?? [{ label: "this checkout", entry: extensionEntryUrl() }];
  try {
    const samples = builds.map(() => ({ cold: [] as Phases[], warm: [] as Phases[] }));
    const indexFile = join(dirname(home.cacheFile), "mcp-search-index.bin");
    // Each build with its own warm cache and kept index, as its warm-up session (one search) leaves them: the
    // cache as that build writes it, with the tools pinned as a user's are; builds of other code key the index
    // differently and would replace each other's.
    const listed = readFileSync(home.cacheFile, "utf8");
    const warmCache: Buffer[] = [];
    const keptIndex = builds.map((b) => {
      writeFileSync(home.cacheFile, cacheAsWrittenBy(b, listed));
      rmSync(indexFile, { force: true });
      child(b.entry, home.cwd, undefined, "warm-up");
      warmCache.push(readFileSync(home.cacheFile));
      return readFileSync(indexFile);
    });
    // Round by round: both cache states and every build, the order flipped each round.
    for (let i = 0; i < runs; i++) {
      const order = builds.map((_, k) => k);
      if (i % 2) order.reverse();
      const states = i % 2 ? (["warm", "cold"] as const) : (["cold", "warm"] as const);
      for (const state of states.filter((s) => s === "warm" || !options.warmOnly)) {
        for (const k of order) {
          if (state === "cold") rmSync(home.cacheFile, { force: true });
          else writeFileSync(home.cacheFile, warmCache[k]!);
          if (options.noIndex) rmSync(indexFile, { force: true });
          else writeFileSync(indexFile, keptIndex[k]!);
          const profile = i === 0 ? options.profileDir : undefined;
          samples[k]![state].push(
            child(builds[k]!.entry, home.cwd, profile, `${state}-${k}`, options.noIdle),
          );
        }
      }
    }
    const medians = (list: Phases[]) =>
      Object.fromEntries(PHASES.map((p) => [p, median(list.map((x) => x[p]))])) as Phases;
    const figure = (p: Phases, f: RatioFigure) => (f === "toRequest" ? toRequest(p) : p[f]);
    const ratio = (state: "cold" | "warm") =>
      samples.slice(1).map((s) => {
        const per = (f: RatioFigure) =>
          median(s[state].map((x, r) => figure(x, f) / figure(samples[0]![state][r]!, f)));
        return Object.fromEntries(RATIO_FIGURES.map((f) => [f, per(f)])) as Record<RatioFigure, number>;
      });
    return {
      runs,
      builds: builds.map((b, k) => ({
        label: b.label,
        cold: medians(samples[k]!.cold),
        warm: medians(samples[k]!.warm),
      })),
      ratios: { cold: ratio("cold"), warm: ratio("warm") },
    };
  } finally {
    home.close();
  }
}

export function formatStartupPhases(r: StartupPhasesResult): string {
  const row = (label: string, p: Phases) => {
    const cells = PHASES.map((k) => `${k} ${p[k].toFixed(1)}`).join(", ");
    return `  ${label}: ${cells} ms; import → before_agent_start done ${toRequest(p).toFixed(1)} ms`;
  };
  const lines = [`Start-up phases in a fresh process, 38 lazy servers (median of ${r.runs}, interleaved):`];
  // Without cold runs (`--warm-only`) their medians are NaN: left out.
  const shown = (["cold", "warm"] as const).filter(
    (state) => !Number.isNaN(r.builds[0]!.cold.import) || state === "warm",
  );
  for (const b of r.builds)
    lines.push(`${b.label}`, ...shown.map((state) => row(`${state} cache`, b[state])));
  r.builds.slice(1).forEach((b, k) => {
    const cells = (state: "cold" | "warm") =>
      RATIO_FIGURES.map((f) => `${f} ${(r.ratios[state][k]?.[f] ?? Number.NaN).toFixed(3)}`).join(", ");
    lines.push(`${b.label} / ${r.builds[0]!.label}, median of per-round ratios:`);
    lines.push(...shown.map((state) => `  ${state} cache: ${cells(state)}`));
  });
  return lines.join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flagValue = (flag: string) =>
    args.includes(flag) ? resolve(args[args.indexOf(flag) + 1]!) : undefined;
  const profileDir = flagValue("--cpu-prof");
  const other = flagValue("--vs");
  const runs = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith("--")) ?? 9);
  const builds: PhasesBuild[] = [{ label: "this checkout", entry: extensionEntryUrl() }];
  if (other) {
    const entry = pathToFileURL(resolve(other, "packages/pi-mcp-adapter/dist/pi/extension.js")).href;
    builds.unshift({ label: other, entry });
  }
  const noIdle = args.includes("--no-idle");
  const warmOnly = args.includes("--warm-only");
  const noIndex = args.includes("--no-index");
  console.log(
    formatStartupPhases(await measureStartupPhases(runs, { profileDir, builds, noIdle, warmOnly, noIndex })),
  );
}
