/**
 * The side-by-side call row (`side-by-side-call.ts`: a proxied `mcp` call
 * against a bare SDK `callTool` to server-everything, inside the same real
 * Pi) in interleaved rounds, for this checkout and optionally another build
 * of the adapter (`--before <package dir>`), the order rotating each round,
 * so a before/after comparison shares the machine's state. Prints each
 * round's medians and ratio, and the median ratio per column.
 *
 *   node --import tsx src/call-rounds.ts [--rounds N] [--pairs N] [--before DIR] [--cpu-prof DIR]
 *
 * `--cpu-prof DIR` profiles Pi's CPU in the last round (`fixtures/cpu-profile.mjs`;
 * a profile per column under DIR, for `src/pi-call-profile.ts`).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { measureCalls } from "./side-by-side/side-by-side-call.js";
import {
  ADAPTERS,
  type BenchProject,
  createBenchProject,
  pi16,
} from "./side-by-side/side-by-side-project.js";
import { median } from "./transport/transport-measure.js";

function option(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i < 0 ? undefined : process.argv[i + 1];
}

const rounds = Number(option("--rounds") ?? 3);
const pairs = Number(option("--pairs") ?? 200);
const before = option("--before");
const profileDir = option("--cpu-prof");
const host = pi16();
const cpuProfilePreload = fileURLToPath(new URL("../fixtures/cpu-profile.mjs", import.meta.url));
const log = (line: string) => console.error(line);

const projects: BenchProject[] = [await createBenchProject(ADAPTERS.ours, host)];
if (before) {
  projects.push(await createBenchProject({ ...ADAPTERS.ours, label: "before", extension: before }, host));
}
try {
  const ratios = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    const order = projects.map((_, i) => projects[(i + round) % projects.length]!);
    for (const p of order) {
      let env: NodeJS.ProcessEnv = {};
      if (profileDir && round === rounds - 1) {
        const dir = join(profileDir, p.adapter.label.replace(/\W+/g, "-"));
        mkdirSync(dir, { recursive: true });
        env = {
          NODE_OPTIONS: `--import=${pathToFileURL(cpuProfilePreload).href}`,
          BENCH_CPU_PROFILE_DIR: dir,
        };
      }
      const row = (await measureCalls([p], pairs, env)).ours!;
      ratios.set(p.adapter.label, [...(ratios.get(p.adapter.label) ?? []), row.ratio]);
      log(
        `round ${round + 1}: ${p.adapter.label}: bare ${row.bareMs.toFixed(3)} ms, proxied ${row.proxiedMs.toFixed(3)} ms, ratio ${row.ratio.toFixed(3)}`,
      );
    }
  }
  console.log(`${rounds} rounds of ${pairs} pairs, interleaved: proxied / bare, median of rounds`);
  for (const [label, values] of ratios)
    console.log(`${label}: ${median(values).toFixed(3)} (${values.map((v) => v.toFixed(3)).join(", ")})`);
} finally {
  for (const p of projects) await p.close();
}
