/**
 * Five sessions at once, each in its own project, sharing one Pi agent dir —
 * the files every session writes there must keep every session's part and
 * stay valid JSON: the project-server approvals (`trust`), the metadata
 * cache and the call stats. Each session is the real CLI bin under plain
 * Node (`trust --yes`, then a call to its own stdio fixture server), all
 * five started together.
 */
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../../../../packages/pi-mcp-adapter/dist/cli/main.js", import.meta.url));
const SESSIONS = 5;

function session(project: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const node = JSON.stringify(process.execPath);
  const bin = JSON.stringify(cli);
  const cwd = JSON.stringify(project);
  const name = path.basename(project);
  const script = `${node} ${bin} --cwd ${cwd} trust --yes && ${node} ${bin} --cwd ${cwd} call ${name}_add '{"a":2,"b":40}'`;
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", script], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("shared files under concurrent sessions", () => {
  it("five sessions keep every approval, cache entry and stats row, in valid JSON, with no lock left", async () => {
    await using dir = await createTempDir();
    const agent = dir.join("agent");
    await mkdir(agent, { recursive: true });
    await writeFile(
      path.join(agent, "mcp-adapter.json"),
      JSON.stringify({ settings: { captureStats: { file: path.join(agent, "stats.json") } } }),
    );
    const projects = Array.from({ length: SESSIONS }, (_, i) => dir.join(`p${i}`));
    for (const project of projects) {
      await mkdir(project);
      await writeFile(
        path.join(project, ".mcp.json"),
        JSON.stringify({
          mcpServers: {
            [path.basename(project)]: { command: process.execPath, args: [stdioFixtureServerPath] },
          },
        }),
      );
    }
    const env = { ...process.env, PI_CODING_AGENT_DIR: agent, HOME: dir.join("home") };
    const results = await Promise.all(projects.map((project) => session(project, env)));
    for (const result of results) {
      expect(result.code, result.output).toBe(0);
      expect(result.output.trim().split("\n").at(-1)).toBe("42");
    }

    const json = async (file: string) => JSON.parse(await readFile(path.join(agent, file), "utf8"));
    const approvals = (await json("mcp-adapter-approvals.json")) as { approvals: { server: string }[] };
    expect(approvals.approvals.map((a) => a.server).sort()).toEqual(projects.map((p) => path.basename(p)));
    const cache = (await json("mcp-cache.json")) as { servers: Record<string, unknown> };
    expect(Object.keys(cache.servers).sort()).toEqual(projects.map((p) => path.basename(p)));
    const stats = (await json("stats.json")) as { tools: { server: string; tool: string; calls: number }[] };
    expect(stats.tools.map((t) => `${t.server}/${t.tool}:${t.calls}`).sort()).toEqual(
      projects.map((p) => `${path.basename(p)}/add:1`),
    );
    expect((await readdir(agent)).filter((f) => /\.(lock|tmp|break)$/.test(f))).toEqual([]);
  }, 120_000);
});
