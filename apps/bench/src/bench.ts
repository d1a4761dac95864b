/**
 * `npm run bench -w apps/bench`: search, transport and shell benchmarks, each
 * in its own process (the shell bench counts child processes from its first
 * import), stopping at the first that fails. With `--side-by-side`, only the
 * side-by-side suite (`src/side-by-side/side-by-side-run.ts`) runs, with the other flags.
 */
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const suites = args.includes("--side-by-side")
  ? [["src/side-by-side/side-by-side-run.ts", ...args.filter((a) => a !== "--side-by-side")]]
  : [["src/search/run.ts", ...args], ["src/transport/transport-run.ts"], ["src/shell/shell-run.ts"]];
for (const [script, ...rest] of suites) {
  const run = spawnSync(process.execPath, ["--import", "tsx", script!, ...rest], { stdio: "inherit" });
  if (run.status !== 0) {
    process.exitCode = run.status ?? 1;
    break;
  }
}
