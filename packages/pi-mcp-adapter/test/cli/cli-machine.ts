/**
 * A user's machine in a temp dir for tests of the built CLI: HOME with Pi's
 * agent dir at its default place under it, a project, and `run(...args)`
 * that starts the CLI there with none of this machine's config variables.
 */
import { spawnSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDir } from "@pi-mcp-adapter/test-kit";

const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export async function cliMachine() {
  const dir = await createTempDir();
  const home = dir.join("home");
  const project = dir.join("project");
  const agentDir = path.join(home, ".pi", "agent");
  await mkdir(project, { recursive: true });
  await mkdir(agentDir, { recursive: true });
  const env: Record<string, string | undefined> = { ...process.env, HOME: home };
  for (const key of ["PI_CODING_AGENT_DIR", "XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"]) delete env[key];
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [cli, "--cwd", project, ...args], { encoding: "utf8", env, input: "" });
  return { dir, home, project, agentDir, agentFile: path.join(agentDir, "mcp-adapter.json"), run };
}
