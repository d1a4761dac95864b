/**
 * What reading the kept search index costs a fresh process — the first
 * search's share when the index was kept — with and without server context,
 * paired against another built checkout: per round, one fresh Node process
 * per column (the order flipped each round) reads bytes made of the eval
 * catalog (991 tools) with `searchIndexBytesMatch` (the warm-up's check) and
 * then `searchIndexFromBytes`, and runs the first query. Columns: the other
 * checkout without context (as main ran before server context reached the
 * index), this checkout without context, and this checkout with each
 * server's recorded title, description and instructions. Prints medians
 * (ms) and the median of per-round ratios over the first column.
 *
 * Run: `PI_MCP_EVAL_DIR=… node --import tsx src/search/kept-index-read.ts [rounds] --vs DIR`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadEvalData } from "../eval-data.js";
import { median } from "../transport/transport-measure.js";

const CHILD = `
const [entry, file, withContext] = process.argv.slice(1);
const { readFileSync, writeFileSync, existsSync } = await import("node:fs");
const search = await import(entry);
const data = JSON.parse(readFileSync(file, "utf8"));
const options = withContext === "1" ? { serverContext: data.serverContext } : {};
const bytesFile = file + "." + withContext + "." + (await import("node:crypto")).createHash("sha256").update(entry).digest("hex").slice(0, 16) + ".bin";
if (!existsSync(bytesFile)) {
  writeFileSync(bytesFile, search.searchIndexBytes(search.createSearchIndex(data.tools, options)));
  process.stdout.write("{}");
  process.exit(0);
}
const s = performance.now();
const bytes = readFileSync(bytesFile);
const tools = JSON.parse(JSON.stringify(data.tools));
const fits = search.searchIndexBytesMatch(bytes, tools, options);
const index = search.searchIndexFromBytes(bytes, tools, options);
const readMs = performance.now() - s;
search.rankTools(data.query, index);
const firstMs = performance.now() - s;
process.stdout.write(JSON.stringify({ fits, readMs, firstMs }));
`;

const args = process.argv.slice(2);
const other = args.includes("--vs") ? resolve(args[args.indexOf("--vs") + 1]!) : undefined;
if (!other) throw new Error("Name a built checkout to compare with: --vs DIR");
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--vs") ?? 15);
const entryOf = (dir: string) => pathToFileURL(join(dir, "packages/search/dist/index.js")).href;
const columns = [
  { label: `${other}, no context`, entry: entryOf(other), context: "0" },
  { label: "this checkout, no context", entry: entryOf(resolve("../..")), context: "0" },
  { label: "this checkout, with context", entry: entryOf(resolve("../..")), context: "1" },
];
const data = loadEvalData();
const dir = mkdtempSync(join(tmpdir(), "kept-index-read-"));
const file = join(dir, "catalog.json");
writeFileSync(
  file,
  JSON.stringify({ tools: data.tools, serverContext: data.serverContext, query: data.queries[0]!.query }),
);
const run = (c: (typeof columns)[number]) =>
  JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", CHILD, c.entry, file, c.context], {
      encoding: "utf8",
    }),
  ) as { fits: boolean; readMs: number; firstMs: number };
try {
  for (const c of columns) run(c);
  const samples = columns.map(() => [] as { fits: boolean; readMs: number; firstMs: number }[]);
  const startLoad = loadavg()[0]!.toFixed(1);
  for (let r = 0; r < rounds; r++) {
    const order = columns.map((_, k) => k);
    if (r % 2) order.reverse();
    for (const k of order) samples[k]!.push(run(columns[k]!));
  }
  console.log(
    `Kept index read in a fresh process, ${rounds} rounds interleaved, load ${startLoad} → ${loadavg()[0]!.toFixed(1)}:`,
  );
  columns.forEach((c, k) => {
    const s = samples[k]!;
    const ratio = (f: "readMs" | "firstMs") => median(s.map((x, i) => x[f] / samples[0]![i]![f]));
    console.log(
      `  ${c.label}: read ${median(s.map((x) => x.readMs)).toFixed(1)} ms, read + first query ${median(s.map((x) => x.firstMs)).toFixed(1)} ms` +
        `${k ? ` (ratio ${ratio("readMs").toFixed(3)} / ${ratio("firstMs").toFixed(3)})` : ""}, read back every round: ${s.every((x) => x.fits)}`,
    );
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
