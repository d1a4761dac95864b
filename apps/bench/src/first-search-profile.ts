/**
 * Where the session's first search turn goes in the real Pi 1.6: CPU
 * profiles of Pi's own process (`fixtures/cpu-profile.mjs`, 100 µs samples)
 * over fresh sessions of this checkout (38 lazy eval servers, warm metadata
 * cache, a model that answers at once), cut to the first turn — from the
 * model answering its first request with a search to the next request
 * arriving — and summed per session: self time by origin (our packages, Pi
 * and its dependencies, Node, garbage collection), by function, and the
 * inclusive time of our functions. With `--callers NAME`, the call chains
 * above each function named NAME (ours, Pi's or Node's); with `--callees NAME`,
 * what runs under them (inclusive, by function). With `--start-up`, the window
 * is Pi's start-up instead: from the process's start to the first model
 * request arriving (warm cache); `--alone` profiles Pi alone there (the
 * no-op extension), to compare with, and `--import-only` Pi with our
 * extension imported but its factory never called (what loading costs).
 * Profiles over-count some frames: time the sampler charges to a function is
 * worth timing directly before acting on it (RESULTS.md, start-up 2026-12-07).
 *
 * Run: `PI_MCP_EVAL_DIR=… node --import tsx src/first-search-profile.ts [sessions] [--top N] [--callers NAME] [--callees NAME] [--start-up [--alone | --import-only]]`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Profile } from "./cpu-profile-summary.js";
import { loadEvalData } from "./eval-data.js";
import { origin } from "./pi-call-profile-origin.js";
import { loadCatalogServers } from "./shell/shell-home.js";
import {
  ADAPTERS,
  catalogEntries,
  createBenchProject,
  pi16,
  searchStep,
} from "./side-by-side/side-by-side-project.js";
import { warmCaches } from "./side-by-side/side-by-side-startup.js";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const sessions = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith("--")) ?? 5);
const top = Number(option("--top") ?? 25);
const callersOf = option("--callers");
const calleesOf = option("--callees");
const startUp = args.includes("--start-up");
const alone = startUp && args.includes("--alone");
const importOnly = startUp && !alone && args.includes("--import-only");

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A frame's label: function, then its file within our packages (or its package). */
function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/packages\//, "").replace(/^.*\/node_modules\//, "");
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
}

const dir = mkdtempSync(join(tmpdir(), "first-search-profile-"));
const preload = fileURLToPath(new URL("../fixtures/cpu-profile.mjs", import.meta.url));
// Monotonic µs, the clock V8's profiles count on.
const now = () => Number(process.hrtime.bigint() / 1000n);
const data = loadEvalData();
const servers = loadCatalogServers(data.dir);
const importOnlyExtension = fileURLToPath(new URL("../fixtures/import-only-extension.mjs", import.meta.url));
const project = await createBenchProject(
  alone ? ADAPTERS.none : importOnly ? { ...ADAPTERS.none, extension: importOnlyExtension } : ADAPTERS.ours,
  pi16(),
);
const windows: [number, number][] = [];
try {
  project.configure(catalogEntries(servers, project.project.pidDir));
  await warmCaches([project], servers.length);
  for (let session = 0; session < sessions; session++) {
    const marks: number[] = [];
    await project.run(
      [data.queries[0]!.query, data.queries[1]!.query].map((query) => () => {
        marks.push(now());
        return searchStep(query);
      }),
      { env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`, BENCH_CPU_PROFILE_DIR: dir } },
    );
    // The profile starts with the process: its start is known once it is read.
    windows.push(startUp ? [Number.NEGATIVE_INFINITY, marks[0]!] : [marks[0]!, marks[1]!]);
  }
  // The profiles are named by pid; sessions ran one after another, so pid order is not needed: sort by start.
  const profiles = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Profile & { nodes: ProfileNode[] })
    .sort((a, b) => (a.startTime ?? 0) - (b.startTime ?? 0));
  const byOrigin = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const chains = new Map<string, number>();
  const under = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let wall = 0;
  let busy = 0;
  profiles.forEach((profile, k) => {
    const [start, to] = windows[k]!;
    const from = Math.max(start, profile.startTime ?? 0);
    wall += (to - from) / 1000;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    let at = profile.startTime ?? 0;
    profile.samples.forEach((id, i) => {
      at += profile.timeDeltas[i] ?? 0;
      const node = nodes.get(id)!;
      const name = node.callFrame.functionName;
      if (at < from || at > to || name === "(idle)" || name === "(program)") return;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      busy += ms;
      add(byOrigin, name === "(garbage collector)" ? "(garbage collector)" : origin(node.callFrame.url), ms);
      add(self, label(node), ms);
      const stack: ProfileNode[] = [];
      for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) stack.push(nodes.get(up)!);
      const ours = new Set(stack.filter((n) => /\/packages\//.test(n.callFrame.url)).map(label));
      for (const key of ours) add(inclusive, key, ms);
      const named = stack.findIndex((n) => n.callFrame.functionName === callersOf);
      if (callersOf && named >= 0)
        add(
          chains,
          stack
            .slice(named, named + 6)
            .map(label)
            .join(" < "),
          ms,
        );
      const above = stack.findIndex((n) => n.callFrame.functionName === calleesOf);
      if (calleesOf && above >= 0)
        for (const key of new Set(stack.slice(0, above).map(label))) add(under, key, ms);
    });
  });
  const n = profiles.length;
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, ms]) => `${(ms / n).toFixed(1).padStart(8)} ms  ${key}`);
  console.log(
    [
      `${startUp ? "Start-up to the first request" : "The first search turn"} in Pi 1.6${alone ? " alone" : importOnly ? " with ours imported, not run" : ""}, ${n} sessions (per session): wall ${(wall / n).toFixed(1)} ms, busy ${(busy / n).toFixed(1)} ms (profiled, so slower than unprofiled)`,
      "by origin:",
      ...rows(byOrigin),
      "self time by function:",
      ...rows(self),
      "inclusive time of our functions:",
      ...rows(inclusive),
      ...(callersOf ? [`call chains above ${callersOf}:`, ...rows(chains)] : []),
      ...(calleesOf ? [`under ${calleesOf} (inclusive):`, ...rows(under)] : []),
    ].join("\n"),
  );
} finally {
  await project.close();
  rmSync(dir, { recursive: true, force: true });
}
