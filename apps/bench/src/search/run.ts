/**
 * `npm run bench:search -w apps/bench`: search quality and latency, and the
 * first-request tokens of the proxy tool with its server roster. Flags:
 * after the development set's table by style, one table of every query set (`search-sets.ts`: dev,
 * LiveMCPBench, the fixture sets). `--misses` lists the queries of every set not answered at rank 1;
 * `--quick` skips the 100k-tool scaling runs; `--folds` adds the two-fold
 * cross-validation of the tuned weights (`search-folds.ts`) and leave-one-set-out (`search-set-folds.ts`); `--queries FILE` adds the figures on one more
 * query file of the same form (e.g. fixtures/search-particle-queries.jsonl).
 */
import { basename, resolve } from "node:path";
import { loadEvalData, loadQueries } from "../eval-data.js";
import { formatRosterTokens, measureRosterTokens } from "./roster-tokens.js";
import { formatConfidence, measureConfidence } from "./search-confidence.js";
import { crossValidate, formatFolds } from "./search-folds.js";
import { formatLatency, measureLatency } from "./search-latency.js";
import { evaluate, formatQualityTable, notBeating } from "./search-quality.js";
import { formatRegex, measureRegex } from "./search-regex.js";
import { formatHeldOut, leaveOneSetOut } from "./search-set-folds.js";
import { evaluateSets, formatSetsTable, loadQuerySets } from "./search-sets.js";

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
const sets = loadQuerySets(data);
if (extraQueries) {
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), extraQueries);
  sets.push({
    name: basename(path),
    origin: "--queries",
    tools: data.tools,
    queries: loadQueries(path),
    serverContext: data.serverContext,
  });
}
// The development set was scored above; the other sets are scored here, one row each.
const scored = [{ set: sets[0]!, results }, ...evaluateSets(sets.slice(1))];
console.log("\nEvery set, over all its queries:\n");
console.log(formatSetsTable(scored));
console.log("\nMatch confidence (labels only; the order above is the same with or without them):\n");
console.log(formatConfidence(measureConfidence(sets)));
if (args.has("--misses")) {
  for (const {
    set,
    results: [ours],
  } of scored) {
    console.log(`\nNot first (${set.name}):`);
    for (const miss of ours!.misses) {
      console.log(
        `  rank ${miss.rank ?? "-"} [${miss.query.style}] ${miss.query.query} → want ${miss.query.relevant.join(", ")}; got ${miss.top.join(", ")}`,
      );
    }
  }
}
if (args.has("--folds")) {
  console.log("\nTwo-fold cross-validation (halves stratified by style, fixed seed):\n");
  console.log(formatFolds(crossValidate(data)));
  console.log("\nLeave one set out (the cross-set weights chosen on the other sets of 20+ queries):\n");
  console.log(formatHeldOut(leaveOneSetOut(sets)));
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
