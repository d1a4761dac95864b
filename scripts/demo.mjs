#!/usr/bin/env node
// `npm start`: the pi-mcp-adapter CLI against the demo config in examples/demo.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../packages/pi-mcp-adapter/dist/cli/main.js", import.meta.url));
const steps = [
  ["Servers (the project's server awaits approval)", ["status"]],
  ["Approve it (shows the command line it runs)", ["trust", "--yes"]],
  ["Search: count words", ["search", "count", "words"]],
  ["Describe: demo_word_count", ["describe", "demo_word_count"]],
  [
    "Call: demo_word_count",
    ["call", "demo_word_count", JSON.stringify({ text: "The quick brown fox\njumps over the lazy dog" })],
  ],
];
// A throwaway Pi agent dir, so the demo's tool cache stays out of the user's own ~/.pi/agent.
const agentDir = mkdtempSync(path.join(tmpdir(), "pi-mcp-adapter-demo-"));
const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
let failed = false;
for (const [title, args] of steps) {
  console.log(
    `\n== ${title}\n$ pi-mcp-adapter --cwd examples/demo ${args.map((a) => (/\s|"/.test(a) ? `'${a}'` : a)).join(" ")}`,
  );
  const run = spawnSync(process.execPath, [cli, "--cwd", "examples/demo", ...args], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  if (run.status !== 0) failed = true;
}
rmSync(agentDir, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
