/**
 * What building the search index over the eval catalog (991 tools) costs a
 * fresh Node process, as the session's first search pays it: the first
 * `createSearchIndex` (wall and CPU ms), then the rebuild after one server's
 * tools changed (new objects for that server, the other 37 servers' objects
 * as they were, a new array — what the catalog hands search after a
 * list_changed), and a build over an equal catalog of new objects; also
 * the heap after the first build (after a full GC, the index alive), and
 * the first 20 queries on it. With
 * `--warm`, each build's own warm-up runs first (what `warmUpSearch` does
 * before the first search): `prepareSearch` over other metadata objects of
 * the same tools where search has it, else the tokenizer and stemmer over
 * names and descriptions.
 *
 * `--vs DIR` runs another checkout's built search package
 * (`DIR/packages/search/dist`) in the same rounds, interleaved, and prints
 * this checkout's figures over it (median of per-round ratios). Every ranked
 * hit (prefixed name and score) of the dev and check queries is compared
 * between the two builds as well: any difference is printed. Where search
 * keeps an index as bytes (`searchIndexBytes`), the index read back from
 * them is compared with the built one the same way.
 *
 * Run: `PI_MCP_EVAL_DIR=… node --import tsx src/search/index-build.ts [runs] [--vs DIR] [--warm]`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadCheckQueries, loadEvalData } from "../eval-data.js";
import { median } from "../transport/transport-measure.js";

const FIGURES = [
  "firstMs",
  "firstCpuMs",
  "heapMiB",
  "firstQueriesMs",
  "oneServerChangedMs",
  "freshObjectsMs",
] as const;
type Figure = (typeof FIGURES)[number];
type Sample = Record<Figure, number>;

const CHILD = `
const [entry, file, warm, rank] = process.argv.slice(1);
const { readFileSync } = await import("node:fs");
const search = await import(entry);
const data = JSON.parse(readFileSync(file, "utf8"));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
// The warm-up of each build: analysis of other metadata objects built from the same listing (same schemas), or,
// where search has no prepareSearch, the tokenizer and stemmer over names and descriptions.
if (warm === "1" && search.prepareSearch) search.prepareSearch(data.tools.map((t) => ({ ...t })));
else if (warm === "1") for (const t of data.tools) for (const w of search.tokenize(t.name + " " + t.description)) search.stem(w);
const c0 = cpu();
let s = performance.now();
const index = search.createSearchIndex(data.tools);
const firstMs = performance.now() - s;
const firstCpuMs = cpu() - c0;
globalThis.gc();
// The heap with the catalog and its index alive (and whatever search keeps for the process).
const heapMiB = process.memoryUsage().heapUsed / 1048576;
// The first 20 queries on the new index, one after the other (a session's first searches), in all.
s = performance.now();
for (const q of data.queries.slice(0, 20)) search.rankTools(q, index);
const firstQueriesMs = performance.now() - s;
const server = data.tools[0].server;
const changed = data.tools.map((t) => (t.server === server ? { ...t, description: t.description + " (v2)" } : t));
s = performance.now();
search.createSearchIndex(changed);
const oneServerChangedMs = performance.now() - s;
const fresh = JSON.parse(JSON.stringify(data.tools));
s = performance.now();
search.createSearchIndex(fresh);
const freshObjectsMs = performance.now() - s;
const top20 = (i) => data.queries.map((q) => search.rankTools(q, i, { limit: 20 }).hits.map((h) => h.tool.prefixedName + " " + h.score));
const hits = rank === "1" ? top20(index) : [];
// Where search can keep an index as bytes: the index read back over new objects of the same tools.
let readBack;
if (rank === "1" && search.searchIndexBytes) {
  const bytes = search.searchIndexBytes(index);
  const copies = JSON.parse(JSON.stringify(data.tools));
  s = performance.now();
  const loaded = search.searchIndexFromBytes(bytes, copies);
  readBack = { bytes: bytes.byteLength, ms: performance.now() - s, hits: loaded ? top20(loaded) : [] };
}
process.stdout.write(JSON.stringify({ firstMs, firstCpuMs, heapMiB, firstQueriesMs, oneServerChangedMs, freshObjectsMs, hits, readBack, alive: index.tools.length }));
`;

interface ReadBack {
  bytes: number;
  ms: number;
  hits: string[][];
}

function child(
  entry: string,
  file: string,
  warm: boolean,
  rank: boolean,
): Sample & { hits: string[][]; readBack?: ReadBack } {
  const args = [
    "--expose-gc",
    "--input-type=module",
    "-e",
    CHILD,
    entry,
    file,
    warm ? "1" : "0",
    rank ? "1" : "0",
  ];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 << 20 }));
}

function ownSearchEntry(): string {
  const require = createRequire(import.meta.url);
  return pathToFileURL(join(dirname(require.resolve("@pi-mcp-adapter/search/package.json")), "dist/index.js"))
    .href;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const other = args.includes("--vs") ? resolve(args[args.indexOf("--vs") + 1]!) : undefined;
  const warm = args.includes("--warm");
  const runs = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--vs") ?? 9);
  const data = loadEvalData();
  const dir = mkdtempSync(join(tmpdir(), "index-build-"));
  const file = join(dir, "catalog.json");
  const queries = [...data.queries, ...loadCheckQueries()].map((q) => q.query);
  writeFileSync(file, JSON.stringify({ tools: data.tools, queries }));
  const builds = [{ label: "this checkout", entry: ownSearchEntry() }];
  if (other)
    builds.unshift({ label: other, entry: pathToFileURL(join(other, "packages/search/dist/index.js")).href });
  try {
    const samples = builds.map(() => [] as Sample[]);
    const rankedRuns = builds.map((b) => child(b.entry, file, warm, true));
    const ranked = rankedRuns.map((r) => r.hits);
    for (let i = 0; i < runs; i++) {
      const order = builds.map((_, k) => k);
      if (i % 2) order.reverse();
      for (const k of order) samples[k]!.push(child(builds[k]!.entry, file, warm, false));
    }
    console.log(
      `Index build over ${data.tools.length} tools in a fresh process${warm ? " (tokenizer warmed)" : ""}, median of ${runs}, interleaved:`,
    );
    builds.forEach((b, k) => {
      const cells = FIGURES.map((f) => `${f} ${median(samples[k]!.map((s) => s[f])).toFixed(1)}`);
      console.log(`  ${b.label}: ${cells.join(", ")}`);
    });
    if (builds.length > 1) {
      const ratio = (f: Figure) => median(samples[1]!.map((s, r) => s[f] / samples[0]![r]![f]));
      console.log(
        `  ${builds[1]!.label} / ${builds[0]!.label}, median of per-round ratios: ${FIGURES.map((f) => `${f} ${ratio(f).toFixed(3)}`).join(", ")}`,
      );
      const differ = queries.filter((_, q) => ranked[0]![q]!.join("\n") !== ranked[1]![q]!.join("\n"));
      console.log(
        differ.length
          ? `  ranked hits differ on ${differ.length} of ${queries.length} queries: ${differ.slice(0, 5).join("; ")}`
          : `  ranked hits (top 20, names and scores) identical on all ${queries.length} queries`,
      );
    }
    const readBack = rankedRuns.at(-1)!.readBack;
    if (readBack) {
      const differ = queries.filter((_, q) => readBack.hits[q]?.join("\n") !== ranked.at(-1)![q]!.join("\n"));
      console.log(
        `  ${builds.at(-1)!.label}, the index read back from its ${(readBack.bytes / 1024).toFixed(0)} KiB of bytes (${readBack.ms.toFixed(1)} ms): ` +
          (differ.length
            ? `ranked hits differ on ${differ.length} of ${queries.length} queries: ${differ.slice(0, 5).join("; ")}`
            : `ranked hits identical to the built index on all ${queries.length} queries`),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
