/**
 * The session's first search turn in the real Pi 1.6, paired: per round, one
 * fresh Pi session per column (this checkout, and the checkout named by
 * `PI_MCP_BENCH_BEFORE` in the reference's column), the order flipped each
 * round, 38 lazy eval servers, warm metadata cache. Each session makes two
 * searches at once (the scripted model answers immediately, so the search
 * warm-up has not finished): the first turn, and a second one for what a
 * later turn costs in the same process. A turn runs from answering a model
 * request with the search to the next request carrying its result (Pi's
 * tool turn included). Prints the medians and the median of per-round
 * ratios (this checkout / before) and how many rounds each side kept within
 * the design's 150 ms, with the load average.
 *
 * `--no-index` removes this checkout's kept search index
 * (`mcp-search-index.bin`) before each of its sessions: a first search
 * after the tools changed, which builds the index itself.
 *
 * Run: `PI_MCP_BENCH_BEFORE=<built tree> node --import tsx src/first-search-turns.ts [rounds] [--no-index]`.
 */
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
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
import { warmCaches } from "./side-by-side/side-by-side-startup.js";
import { median } from "./transport/transport-measure.js";

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 9);
const noIndex = args.includes("--no-index");
if (!process.env.PI_MCP_BENCH_BEFORE)
  throw new Error("Set PI_MCP_BENCH_BEFORE to a built checkout to compare with");

/** The design's target for a session's first search turn, in every session. */
const TARGET_MS = 150;
const within = (turns: number[]) =>
  `${turns.filter((ms) => ms <= TARGET_MS).length} of ${turns.length} (max ${Math.max(...turns).toFixed(0)} ms)`;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const host = pi16();
const data = loadEvalData();
const servers = loadCatalogServers(data.dir);
const projects: BenchProject[] = [];
try {
  for (const adapter of [ADAPTERS.ref, ADAPTERS.ours]) {
    const p = await createBenchProject(adapter, host);
    projects.push(p);
    p.configure(catalogEntries(servers, p.project.pidDir));
  }
  await warmCaches(projects, servers.length);
  console.error(`load ${load()} at the start; ${rounds} rounds${noIndex ? ", no kept index" : ""}`);
  const first = projects.map(() => [] as number[]);
  const second = projects.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const k of order) {
      const p = projects[k]!;
      if (noIndex && p.adapter.id === "ours")
        rmSync(join(p.project.agentDir, "mcp-search-index.bin"), { force: true });
      const run = await p.run([searchStep(data.queries[0]!.query), searchStep(data.queries[1]!.query)]);
      first[k]!.push(run.arrivals[1]! - run.arrivals[0]!);
      second[k]!.push(run.arrivals[2]! - run.arrivals[1]!);
    }
    console.error(
      `round ${round + 1}: first turn before ${first[0]!.at(-1)!.toFixed(0)} ms, now ${first[1]!.at(-1)!.toFixed(0)} ms (load ${load()})`,
    );
  }
  const ratios = first[1]!.map((ms, r) => ms / first[0]![r]!);
  console.log(
    [
      `The session's first search turn in Pi 1.6, ${rounds} paired rounds, load ${load()} at the end:`,
      `  before (${process.env.PI_MCP_BENCH_BEFORE}): median ${median(first[0]!).toFixed(1)} ms (second turn ${median(second[0]!).toFixed(1)} ms)`,
      `  this checkout: median ${median(first[1]!).toFixed(1)} ms (second turn ${median(second[1]!).toFixed(1)} ms)`,
      `  this checkout / before, median of per-round ratios: ${median(ratios).toFixed(3)} (range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
      `  rounds within ${TARGET_MS} ms (the target: every one): before ${within(first[0]!)}, this checkout ${within(first[1]!)}`,
    ].join("\n"),
  );
} finally {
  for (const p of projects) await p.close();
}
