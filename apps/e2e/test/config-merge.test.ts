/**
 * Config merging end to end: a server defined in the user-global
 * `~/.config/mcp/mcp.json` is overridden by the project's `.mcp.json`, and the
 * model, through the real Pi CLI of each line, reaches the project's version.
 * A headless run admits project servers only with the user-global
 * `settings.projectServers: "allow"`; without it the project server is skipped.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  createTempDir,
  recordedPids,
  startScriptedModel,
  stdioFixtureServerPath,
  toolResultTexts,
  waitForExit,
  writePiAgentDir,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { allowHeadlessProjectServers } from "../src/fixtures.js";
import { piHosts, runPi } from "../src/pi-hosts.js";

const fixture = (pidDir: string, name: string) => ({
  command: process.execPath,
  args: [stdioFixtureServerPath],
  env: { FIXTURE_PID_DIR: pidDir, FIXTURE_NAME: name },
});

describe.each(piHosts())("$label", (host) => {
  it("merges ~/.config/mcp/mcp.json with .mcp.json, the project's definition winning", async () => {
    await using dir = await createTempDir();
    const [home, project, agentDir, globalPids, projectPids] = [
      "home",
      "project",
      "agent",
      "pids-global",
      "pids-project",
    ].map((p) => dir.join(p)) as [string, string, string, string, string];
    await Promise.all([project, globalPids, projectPids].map((d) => mkdir(d, { recursive: true })));
    await mkdir(path.join(home, ".config", "mcp"), { recursive: true });
    await writeFile(
      path.join(home, ".config", "mcp", "mcp.json"),
      JSON.stringify({
        mcpServers: {
          fixture: fixture(globalPids, "global"),
          "global-only": fixture(globalPids, "global-only"),
        },
      }),
    );
    await writeFile(
      path.join(project, ".mcp.json"),
      JSON.stringify({ mcpServers: { fixture: fixture(projectPids, "project") } }),
    );
    await using model = await startScriptedModel([
      { toolCall: { name: "mcp", arguments: {} } },
      { toolCall: { name: "mcp", arguments: { tool: "whoami", server: "fixture" } } },
      { text: "done" },
    ]);
    await writePiAgentDir(agentDir, model.baseUrl);
    await allowHeadlessProjectServers(agentDir);

    const run = await runPi({ host, cwd: project, agentDir, home, prompt: "who serves fixture?" });

    expect(run.code, run.stderr).toBe(0);
    const [status] = toolResultTexts(model.requests[1]!);
    expect(status).toContain("fixture");
    expect(status).toContain("global-only");
    const whoami = toolResultTexts(model.requests[2]!)[1];
    const started = await recordedPids(projectPids);
    expect(started).toHaveLength(1);
    expect(whoami).toBe(`pid ${started[0]}`);
    expect(await recordedPids(globalPids)).toEqual([]);
    expect(await waitForExit(started, 5000)).toEqual([]);
  });

  it.runIf(host.nativeMcp)(
    "reads no project file when Pi says the project is untrusted, even with projectServers: allow",
    async () => {
      await using dir = await createTempDir();
      const [home, project, agentDir, pids] = ["home", "project", "agent", "pids"].map((p) =>
        dir.join(p),
      ) as [string, string, string, string];
      await Promise.all([path.join(project, ".pi"), pids].map((d) => mkdir(d, { recursive: true })));
      // A protected .pi file leaves trust undecided, which a headless Pi 1.x run treats as untrusted.
      await writeFile(path.join(project, ".pi", "settings.json"), "{}");
      await writeFile(
        path.join(project, ".mcp.json"),
        JSON.stringify({ mcpServers: { fixture: fixture(pids, "project") } }),
      );
      await using model = await startScriptedModel([
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "done" },
      ]);
      await writePiAgentDir(agentDir, model.baseUrl);
      await allowHeadlessProjectServers(agentDir);

      const run = await runPi({ host, cwd: project, agentDir, home, prompt: "status" });

      expect(run.code, run.stderr).toBe(0);
      const [status] = toolResultTexts(model.requests[1]!);
      expect(status).toContain(`${path.join(project, ".mcp.json")}: not loaded: the project is not trusted`);
      expect(status).not.toContain("- fixture");
      expect(await recordedPids(pids)).toEqual([]);
    },
  );

  it("skips the unapproved project server in a headless run without projectServers: allow", async () => {
    await using dir = await createTempDir();
    const [home, project, agentDir, pids] = ["home", "project", "agent", "pids"].map((p) => dir.join(p)) as [
      string,
      string,
      string,
      string,
    ];
    await Promise.all([project, pids].map((d) => mkdir(d, { recursive: true })));
    await writeFile(
      path.join(project, ".mcp.json"),
      JSON.stringify({ mcpServers: { fixture: fixture(pids, "project") } }),
    );
    await using model = await startScriptedModel([
      { toolCall: { name: "mcp", arguments: { tool: "whoami", server: "fixture" } } },
      { text: "done" },
    ]);
    await writePiAgentDir(agentDir, model.baseUrl);

    const run = await runPi({ host, cwd: project, agentDir, home, prompt: "who serves fixture?" });

    expect(run.code, run.stderr).toBe(0);
    const reply = toolResultTexts(model.requests[1]!).join("\n");
    expect(reply).toMatch(/Unknown MCP server "fixture"|No MCP tool/);
    expect(await recordedPids(pids)).toEqual([]);
  });
});
