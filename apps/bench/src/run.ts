/**
 * `npm run bench -w apps/bench`: search quality and latency. Flags:
 * `--misses` lists the dev queries our ranking does not answer at rank 1;
 * `--quick` skips the 100k-tool scaling run; `--folds` adds the two-fold
 * cross-validation of the tuned weights (`search-folds.ts`).
 */
import { loadEvalData } from "./eval-data.js";
import { crossValidate, formatFolds } from "./search-folds.js";
import { formatLatency, measureLatency } from "./search-latency.js";
import { evaluate, formatQualityTable, notBeating } from "./search-quality.js";

const args = new Set(process.argv.slice(2));
const data = loadEvalData();
console.log(`Search quality: ${data.tools.length} tools, ${data.queries.length} queries (${data.dir})\n`);
const results = evaluate(data);
console.log(formatQualityTable(results));
const losses = notBeating(results);
console.log(
  losses.length
    ? `\nNOT beating a baseline on: ${losses.join("; ")}`
    : "\nBeats both baselines on every metric.",
);
// A ranking change that loses to a baseline fails the run.
if (losses.length) process.exitCode = 1;
if (args.has("--misses")) {
  for (const miss of results[0]!.misses) {
    console.log(
      `  rank ${miss.rank ?? "-"} [${miss.query.style}] ${miss.query.query} → want ${miss.query.relevant.join(", ")}; got ${miss.top.join(", ")}`,
    );
  }
}
if (args.has("--folds")) {
  console.log("\nTwo-fold cross-validation (halves stratified by style, fixed seed):\n");
  console.log(formatFolds(crossValidate(data)));
}
if (!args.has("--quality-only")) {
  console.log("");
  console.log(formatLatency(measureLatency(data, { maxScale: args.has("--quick") ? 10_000 : 100_000 })));
}
