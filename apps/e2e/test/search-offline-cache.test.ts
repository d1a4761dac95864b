/**
 * Search and describe from the metadata cache: a first Pi run lists a stdio
 * server and caches its tools in the agent dir; then the server can no longer
 * start (same definition, its entry script now exits at once), and a second
 * Pi run still finds and describes its tools — without starting a process.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import {
  createTempDir,
  recordedPids,
  startScriptedModel,
  stdioFixtureServerPath,
  toolResultTexts,
  writePiAgentDir,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { allowHeadlessProjectServers } from "../src/fixtures.js";
import { piHosts, runPi } from "../src/pi-hosts.js";

describe.each(piHosts())("$label", (host) => {
  it("answers search and describe from a warm cache when the server cannot start", async () => {
    await using dir = await createTempDir();
    const project = dir.join("project");
    const pids = dir.join("pids");
    const entry = dir.join("server.mjs");
    await mkdir(project);
    await mkdir(pids);
    await writeFile(entry, `await import(${JSON.stringify(stdioFixtureServerPath)});\n`);
    await writeFile(
      dir.join("project", ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          fixture: { command: process.execPath, args: [entry], env: { FIXTURE_PID_DIR: pids } },
        },
      }),
    );
    const agentDir = dir.join("agent");
    const piOnce = async (script: Parameters<typeof startScriptedModel>[0]) => {
      await using model = await startScriptedModel(script);
      await writePiAgentDir(agentDir, model.baseUrl);
      await allowHeadlessProjectServers(dir.join("agent"));
      const run = await runPi({ host, cwd: project, agentDir, home: dir.join("home"), prompt: "Weather?" });
      expect(run.code, run.stderr).toBe(0);
      return model.requests;
    };

    const warm = await piOnce([
      { toolCall: { name: "mcp", arguments: { search: "weather" } } },
      { text: "ok" },
    ]);
    expect(toolResultTexts(warm[1]!)[0]).toContain("fixture_get_weather");
    expect(existsSync(dir.join("agent", "mcp-cache.json"))).toBe(true);
    const startedWarm = (await recordedPids(pids)).length;
    expect(startedWarm).toBeGreaterThan(0);

    await writeFile(entry, "process.exit(1);\n");
    const cold = await piOnce([
      { toolCall: { name: "mcp", arguments: { search: "city forecast" } } },
      { toolCall: { name: "mcp", arguments: { describe: "fixture-get-weather" } } },
      { text: "done" },
    ]);
    const [search] = toolResultTexts(cold[1]!);
    expect(search).toContain("fixture_get_weather");
    expect(search).not.toContain("unavailable");
    const describeText = toolResultTexts(cold[2]!)[1];
    expect(describeText).toContain("fixture_get_weather (server fixture, tool get_weather)");
    expect(describeText).toContain("city");
    expect((await recordedPids(pids)).length).toBe(startedWarm);
  }, 180_000);
});
