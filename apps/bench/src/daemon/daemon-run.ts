/** `npm run bench:daemon -w apps/bench`: what a call through the shared-server daemon adds. */
import { cpus, loadavg } from "node:os";
import { formatDaemonCallOverhead, measureDaemonCallOverhead } from "./daemon-call-overhead.js";

console.log(
  `Load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${cpus().length} cores\n`,
);
console.log(formatDaemonCallOverhead(await measureDaemonCallOverhead()));
