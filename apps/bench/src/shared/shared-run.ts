/**
 * `npm run bench:shared -w apps/bench`: shared servers in one section — the
 * processes and memory 5 sessions × 10 stdio servers take with and without
 * `shareServers` (shared-servers.ts), then the latency a call through the
 * daemon adds (daemon-call-overhead.ts).
 */
import { cpus, loadavg } from "node:os";
import { formatDaemonCallOverhead, measureDaemonCallOverhead } from "../daemon/daemon-call-overhead.js";
import { formatSharedServers, measureSharedServers } from "./shared-servers.js";

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
console.log(`Load average ${load()} on ${cpus().length} cores\n`);
console.log(formatSharedServers(await measureSharedServers()));
console.log("");
console.log(formatDaemonCallOverhead(await measureDaemonCallOverhead()));
console.log(`\nLoad average at the end ${load()}`);
