/**
 * The CLI ends quietly when the end is not a failure: its reader went away
 * (`pi-mcp-adapter list | head` — a real pipe whose reader closes after one
 * line, over a catalog far larger than a pipe's buffer), or a server's
 * tools/list_changed came in as the CLI was shutting down (the relisting cut
 * short is not worth a warning). The built bin under plain Node.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** Runs the CLI with stdout on a pipe, reads its first line, then closes the pipe; resolves with how it ended. */
async function firstLineThenClose(cwd: string, ...args: string[]) {
  const child = spawn(process.execPath, [cli, "--cwd", cwd, "--approve-project", ...args], {
    env: { ...process.env, PI_CODING_AGENT_DIR: `${cwd}/agent` },
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const lines = createInterface({ input: child.stdout });
  const [first] = (await once(lines, "line")) as [string];
  lines.close();
  child.stdout.destroy();
  const [code, signal] = await exited;
  return { first, code, signal, stderr };
}

describe("pi-mcp-adapter CLI ends quietly", () => {
  it("`list | head`: the reader closes after one line of 3,000 tools, and the CLI exits 0 without a stack", async () => {
    await using dir = await createTempDir();
    const many = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        `tool_${i}`,
        { description: `Tool number ${i}, with a description long enough to fill a pipe's buffer soon.` },
      ]),
    );
    await writeFile(dir.join("tools.json"), JSON.stringify(many));
    const server = { command: process.execPath, args: [stdioFixtureServerPath] };
    const env = { FIXTURE_TOOLS_FILE: dir.join("tools.json") };
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { one: { ...server, env }, two: { ...server, env }, three: { ...server, env } },
      }),
    );
    // An earlier run lists the servers (and caches their tools); `list` prints the cache.
    const search = runCli(dir.path, "search", "tool", "number");
    expect(search.status, search.stderr).toBe(0);
    expect(runCli(dir.path, "list").stdout.length).toBeGreaterThan(256 * 1024);

    const ended = await firstLineThenClose(dir.path, "list");
    expect(ended.first).toMatch(/^(one|two|three): 1004 tools$/);
    expect(ended.stderr).toBe("");
    expect(ended.signal).toBeNull();
    expect([0, 141]).toContain(ended.code);
  }, 60_000);

  it("a call during which the server says its tools changed leaves stderr empty", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("agent"));
    // Pinning off: a relisting that does land before the end would rightly tell of the changed tools.
    await writeFile(dir.join("agent", "mcp-adapter.json"), JSON.stringify({ settings: { pinTools: false } }));
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: {
          fixture: { command: process.execPath, args: [stdioFixtureServerPath], env: { FIXTURE_CHURN: "1" } },
        },
      }),
    );
    // Notifications in a burst, not waiting for relistings: some are still due as the CLI ends.
    for (const times of [2, 5, 20]) {
      const call = runCli(dir.path, "call", "fixture_churn", JSON.stringify({ times, wait: false }));
      expect(call.stdout.trim()).toBe(`sent ${times}`);
      expect(call.stderr).toBe("");
      expect(call.status).toBe(0);
    }
  }, 60_000);
});
