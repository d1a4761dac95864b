/**
 * The CLI as users run it, for tests: the built bin under plain Node, with
 * Pi's agent dir (and so the metadata cache) inside the test's directory,
 * never the user's home, and this project's servers approved for the run.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export function runCli(cwd: string, ...args: string[]) {
  return runCliWith({}, cwd, ...args);
}

/** `runCli` with extra environment variables (e.g. `TMPDIR` for spill files under the test's directory). */
export function runCliWith(env: Record<string, string>, cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [cli, "--cwd", cwd, "--approve-project", ...args], {
    encoding: "utf8",
    env: { ...process.env, PI_CODING_AGENT_DIR: `${cwd}/agent`, ...env },
  });
}
