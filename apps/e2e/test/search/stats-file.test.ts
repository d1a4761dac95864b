/**
 * `captureStats: true` keeps call stats in the project's default file,
 * `.pi/mcp-tool-stats.json`, so the CLI's `pi-mcp-adapter stats` shows what a
 * Pi session counted after the session is over.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { extensionDir, piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const cli = path.join(extensionDir, "dist", "cli", "main.js");

describe.each(piHosts())("$label", (host) => {
  it("writes .pi/mcp-tool-stats.json, which pi-mcp-adapter stats reads afterwards", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: {
        settings: { captureStats: true },
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      },
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "everything_get-sum", args: { a: 1, b: 1 } } } },
        { toolCall: { name: "mcp", arguments: { tool: "everything_get-sum", args: { a: 2, b: 2 } } } },
        { text: "done" },
      ],
    });
    const run = await project.run("add twice");
    expect(run.code, run.stderr).toBe(0);
    expect(toolResultTexts(run.requests[2]!)[1]).toContain("The sum of 2 and 2 is 4");

    const file = path.join(project.dir, ".pi", "mcp-tool-stats.json");
    expect(JSON.parse(await readFile(file, "utf8"))).toBeTruthy();
    const stats = execFileSync(process.execPath, [cli, "stats"], {
      cwd: project.dir,
      env: { ...process.env, HOME: project.home, PI_CODING_AGENT_DIR: project.agentDir },
      encoding: "utf8",
    });
    expect(stats).toContain(`MCP call stats (${file})`);
    expect(stats).toMatch(/everything\/get-sum\s+2\s+0\s+0\s+[\d.]+ ms/);
  });
});
