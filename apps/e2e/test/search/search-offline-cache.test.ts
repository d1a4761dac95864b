/**
 * Search and describe from the metadata cache: a first Pi run lists a stdio
 * server and caches its tools in the agent dir; then the server can no longer
 * start (same definition, its entry script now exits at once), and a second
 * Pi run still finds and describes its tools — without starting a process.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { recordedPids, stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("answers search and describe from a warm cache when the server cannot start", async () => {
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir, join }) => ({
        fixture: { command: process.execPath, args: [join("server.mjs")], env: { FIXTURE_PID_DIR: pidDir } },
      }),
      allowProjectServers: true,
      steps: [
        // The warm run.
        { toolCall: { name: "mcp", arguments: { search: "weather" } } },
        { text: "ok" },
        // The cold run.
        { toolCall: { name: "mcp", arguments: { search: "city forecast" } } },
        { toolCall: { name: "mcp", arguments: { describe: "fixture-get-weather" } } },
        { text: "done" },
      ],
    });
    const entry = project.join("server.mjs");
    const pids = project.pidDir;
    await writeFile(entry, `await import(${JSON.stringify(stdioFixtureServerPath)});\n`);
    const piOnce = async () => {
      const run = await project.run("Weather?");
      expect(run.code, run.stderr).toBe(0);
      return run.requests;
    };

    const warm = await piOnce();
    expect(toolResultTexts(warm[1]!)[0]).toContain("fixture_get_weather");
    expect(existsSync(path.join(project.agentDir, "mcp-cache.json"))).toBe(true);
    const startedWarm = (await recordedPids(pids)).length;
    expect(startedWarm).toBeGreaterThan(0);

    await writeFile(entry, "process.exit(1);\n");
    const cold = await piOnce();
    const [search] = toolResultTexts(cold[1]!);
    expect(search).toContain("fixture_get_weather");
    expect(search).not.toContain("unavailable");
    const describeText = toolResultTexts(cold[2]!)[1];
    expect(describeText).toContain("fixture_get_weather (server fixture, tool get_weather)");
    expect(describeText).toContain("city");
    expect((await recordedPids(pids)).length).toBe(startedWarm);
  }, 180_000);
});
