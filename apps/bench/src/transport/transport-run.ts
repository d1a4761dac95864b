/**
 * `npm run bench:transport -w apps/bench`: parallel start, per-call overhead,
 * memory saved by npx resolution, and calls beside a hanging server, each
 * against a baseline of this run.
 */
import { cpus, loadavg } from "node:os";
import { formatCallsBesideHanging, measureCallsBesideHanging } from "./calls-beside-hanging-server.js";
import { formatCallOverhead, measureCallOverhead } from "./transport-call-overhead.js";
import { formatNpxRss, measureNpxRss } from "./transport-npx-rss.js";
import { formatParallelStart, measureParallelStart } from "./transport-parallel-start.js";

console.log(
  `Load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${cpus().length} cores (ratios are noisy when loaded)\n`,
);
console.log(formatParallelStart(await measureParallelStart()));
console.log("");
console.log(formatCallOverhead(await measureCallOverhead()));
console.log("");
console.log(formatNpxRss(await measureNpxRss()));
console.log("");
console.log(formatCallsBesideHanging(await measureCallsBesideHanging()));
