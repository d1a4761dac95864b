/**
 * Pi's own memory with eager servers, in interleaved rounds: Pi alone, this
 * checkout, and optionally another build of the adapter (`--before <package
 * dir>`, e.g. a copy of main's built `packages/pi-mcp-adapter`), the order
 * rotating each round, so a before/after comparison shares the machine's
 * state. Prints the median VmRSS / RssAnon per column and server count, and
 * each column's median of per-round differences to Pi alone.
 *
 *   node --import tsx src/rss-rounds.ts [--rounds N] [--servers 0,1,10] [--before DIR] [--warm] [--snapshot] [--allocations DIR]
 *
 * `--warm` first fills each adapter's metadata cache with all catalog servers
 * (a search in a session with them configured lazy), as the side-by-side
 * suite's earlier sections leave it before its RSS row.
 * `--snapshot` writes one V8 heap snapshot of Pi per column (last round) and
 * prints its path, for Chrome DevTools or `src/heap-summary.ts`;
 * `--allocations DIR` a sampled profile of all Pi's allocations from start-up
 * on (last round; the sampling itself allocates, so not for the figures), for
 * `src/allocation-summary.ts`.
 */
import { copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadCatalogServers } from "./shell/shell-home.js";
import {
  ADAPTERS,
  type BenchProject,
  catalogEntries,
  createBenchProject,
  pi16,
} from "./side-by-side/side-by-side-project.js";
import { measureRssOnce } from "./side-by-side/side-by-side-rss.js";
import { warmCaches } from "./side-by-side/side-by-side-startup.js";
import { median } from "./transport/transport-measure.js";

function option(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i < 0 ? undefined : process.argv[i + 1];
}

const rounds = Number(option("--rounds") ?? 5);
const counts = (option("--servers") ?? "10").split(",").map(Number);
const before = option("--before");
const snapshot = process.argv.includes("--snapshot");
const warm = process.argv.includes("--warm");
const allocations = option("--allocations");
const host = pi16();
const servers = loadCatalogServers();
const log = (line: string) => console.error(line);
const MiB = 1024 * 1024;

/** VmRSS, RssAnon, V8 heap committed, V8 heap used, external, RSS − committed heap (MiB). */
function values(m: Awaited<ReturnType<typeof measureRssOnce>>): number[] {
  const u = m.probe!.usage;
  return [m.rss, m.anon, u.heapTotal / MiB, u.heapUsed / MiB, u.external / MiB, m.rss - u.heapTotal / MiB];
}

function figures(m: Awaited<ReturnType<typeof measureRssOnce>>): string[] {
  const [rss, anon, total, used, external, rest] = values(m).map((v) => v.toFixed(1));
  const spaces = Object.entries(m.probe!.spaces)
    .filter(([, s]) => s.size > 0)
    .map(
      ([name, s]) =>
        `${name.replace(/_space$/, "")} ${(s.used / MiB).toFixed(1)}/${(s.size / MiB).toFixed(1)}`,
    );
  return [
    `RSS ${rss}`,
    `anon ${anon}`,
    `heap ${used}/${total}`,
    `external ${external}`,
    `rest ${rest}`,
    ...spaces,
  ];
}

const projects: BenchProject[] = [];
try {
  projects.push(await createBenchProject(ADAPTERS.none, host));
  projects.push(await createBenchProject(ADAPTERS.ours, host));
  if (before) {
    projects.push(await createBenchProject({ ...ADAPTERS.ours, label: "before", extension: before }, host));
  }
  if (warm) {
    for (const p of projects) p.configure(catalogEntries(servers, p.project.pidDir));
    await warmCaches(projects, servers.length);
  }
  type Reading = Awaited<ReturnType<typeof measureRssOnce>>;
  // column label → server count → one reading per round
  const readings = new Map<string, Map<number, Reading[]>>();
  const keep = (label: string, n: number, m: Reading) => {
    const byCount = readings.get(label) ?? new Map<number, Reading[]>();
    readings.set(label, byCount);
    byCount.set(n, [...(byCount.get(n) ?? []), m]);
  };
  for (let round = 0; round < rounds; round++) {
    const order = projects.map((_, i) => projects[(i + round) % projects.length]!);
    for (const p of order) {
      // Pi alone configures nothing: one reading stands for every server count.
      for (const n of p.adapter.configFile ? counts : [0]) {
        const m = await measureRssOnce(p, {
          servers: servers.slice(0, n),
          probe: {
            heapSnapshot: snapshot && round === rounds - 1,
            ...(allocations && round === rounds - 1
              ? { allocations: join(allocations, `${p.adapter.label.replace(/\W+/g, "-")}-${n}.heapprofile`) }
              : {}),
          },
        });
        if (m.probe?.snapshot) {
          const kept = join(tmpdir(), `pi-rss-${p.adapter.label.replace(/\W+/g, "-")}-${n}.heapsnapshot`);
          copyFileSync(resolve(p.project.dir, m.probe.snapshot), kept);
          log(`heap snapshot: ${kept}`);
        }
        keep(p.adapter.label, n, m);
        log(`round ${round + 1}: ${p.adapter.label}, ${n} servers: ${figures(m).join(", ")}`);
      }
    }
  }
  const alone = readings.get(ADAPTERS.none.label)!.get(0)!;
  const names = ["VmRSS", "RssAnon", "V8 heap committed", "V8 heap used", "external", "RSS − heap"];
  const rows = [
    `| column | servers | ${names.join(" | ")} |`,
    `|---|--:|${names.map(() => "--:").join("|")}|`,
  ];
  for (const [label, byCount] of readings) {
    for (const [n, ms] of byCount) {
      // Each figure: the median, and the median of its per-round difference to Pi alone.
      const cells = names.map((_, k) => {
        const value = median(ms.map((m) => values(m)[k]!));
        const over = median(ms.map((m, i) => values(m)[k]! - values(alone[i]!)[k]!));
        return label === ADAPTERS.none.label ? value.toFixed(1) : `${value.toFixed(1)} (+${over.toFixed(1)})`;
      });
      rows.push(`| ${label} | ${n} | ${cells.join(" | ")} |`);
    }
  }
  console.log(`${rounds} rounds, interleaved; MiB, median (and median per-round difference to Pi alone)\n`);
  console.log(rows.join("\n"));
} finally {
  for (const p of projects) await p.close();
}
