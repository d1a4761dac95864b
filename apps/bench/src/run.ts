/**
 * `npm run bench:search -w apps/bench`: search quality and latency, and the
 * first-request tokens of the proxy tool with its server roster. Flags:
 * After the development queries, the check queries (fixtures/search-check-queries.jsonl, never tuned
 * on). `--misses` lists the queries of both our ranking does not answer at rank 1;
 * `--quick` skips the 100k-tool scaling runs; `--folds` adds the two-fold
 * cross-validation of the tuned weights (`search-folds.ts`); `--queries FILE` adds the figures on one more
 * query file of the same form (e.g. fixtures/search-particle-queries.jsonl).
 */
import { resolve } from "node:path";
import { loadCheckQueries, loadEvalData, loadQueries } from "./eval-data.js";
import { formatRosterTokens, measureRosterTokens } from "./roster-tokens.js";
import { crossValidate, formatFolds } from "./search-folds.js";
import { formatLatency, measureLatency } from "./search-latency.js";
import { evaluate, formatQualityTable, notBeating } from "./search-quality.js";
import { formatRegex, measureRegex } from "./search-regex.js";

const argv = process.argv.slice(2);
const args = new Set(argv);
const queriesFlag = argv.indexOf("--queries");
const extraQueries = queriesFlag >= 0 ? argv[queriesFlag + 1] : undefined;
if (queriesFlag >= 0 && !extraQueries) throw new Error("--queries needs a JSON-lines file of queries");
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
const check = evaluate({ ...data, queries: loadCheckQueries() });
const checkCount = check[0]!.scores.get("all")!.queries;
console.log(`\nCheck queries (${checkCount}, fixtures/search-check-queries.jsonl; never tuned on):\n`);
console.log(formatQualityTable(check));
if (extraQueries) {
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), extraQueries);
  const extra = evaluate({ ...data, queries: loadQueries(path) });
  console.log(`\nQueries of ${path} (${extra[0]!.scores.get("all")!.queries}):\n`);
  console.log(formatQualityTable(extra));
}
if (args.has("--misses")) {
  for (const [label, result] of [
    ["development", results[0]!],
    ["check", check[0]!],
  ] as const) {
    console.log(`\nNot first (${label} queries):`);
    for (const miss of result.misses) {
      console.log(
        `  rank ${miss.rank ?? "-"} [${miss.query.style}] ${miss.query.query} → want ${miss.query.relevant.join(", ")}; got ${miss.top.join(", ")}`,
      );
    }
  }
}
if (args.has("--folds")) {
  console.log("\nTwo-fold cross-validation (halves stratified by style, fixed seed):\n");
  console.log(formatFolds(crossValidate(data)));
}
if (!args.has("--quality-only")) {
  console.log("");
  const maxScale = args.has("--quick") ? 10_000 : 100_000;
  console.log(formatLatency(measureLatency(data, { maxScale })));
  console.log(
    "\nRegex search (regex: true) as the runtime runs it: how long a search holds the event loop at most, and how long it takes\n",
  );
  console.log(formatRegex(await measureRegex(data, { maxScale })));
}
console.log("");
console.log(formatRosterTokens(await measureRosterTokens()));
