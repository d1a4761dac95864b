/**
 * `npm run bench:shared -w apps/bench`: shared servers in real Pi 1.6 —
 * 5 sessions × 10 stdio servers with our `shareServers` on, off, and Pi's
 * built-in MCP (shared-pi-sessions.ts), then the latency a call through the
 * daemon adds (daemon-call-overhead.ts), in one table (shared-table.ts).
 *
 * Flags: `--columns a,b` a subset of shared, own, builtin; `--no-daemon-calls`
 * leaves out the per-call overhead; `--two-terminals` runs only the check of
 * two-terminals.ts (two interactive Pi sessions in two tmux windows share).
 */
import { cpus, loadavg, totalmem } from "node:os";
import { measureDaemonCallOverhead } from "../daemon/daemon-call-overhead.js";
import { measureShared, SERVERS, SESSIONS, SHARED_COLUMNS, type SharedColumn } from "./shared-pi-sessions.js";
import { formatShared, type SharedResult } from "./shared-table.js";
import { checkTwoTerminals } from "./two-terminals.js";

const argv = process.argv.slice(2);
if (argv.includes("--two-terminals")) {
  await checkTwoTerminals((line) => console.log(line));
  process.exit(0);
}
const at = argv.indexOf("--columns");
const chosen = at < 0 ? [...SHARED_COLUMNS] : (argv[at + 1] ?? "").split(",");
const unknown = chosen.filter((c) => !(SHARED_COLUMNS as readonly string[]).includes(c));
if (unknown.length) {
  throw new Error(`--columns: unknown column ${unknown.join(", ")} (known: ${SHARED_COLUMNS.join(", ")})`);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const log = (line: string) => console.error(line);
const startLoad = load();
const when = `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`;
log(`Load ${startLoad}`);
const result: SharedResult = { columns: {} };
let failure: unknown;
try {
  await measureShared(chosen as SharedColumn[], result.columns, log);
  if (!argv.includes("--no-daemon-calls")) {
    log("A call through the daemon vs direct stdio…");
    result.daemon = await measureDaemonCallOverhead();
  }
} catch (error) {
  failure = error;
}
console.log(
  `Shared servers: ${SESSIONS} real Pi 1.6 sessions × ${SERVERS} stdio servers (server-everything) — ${when}; ${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB; load ${startLoad} at the start, ${load()} at the end\n`,
);
console.log(formatShared(result));
if (failure) {
  console.error("\nStopped early:", failure);
  process.exitCode = 1;
}
