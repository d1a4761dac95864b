/**
 * The walking skeleton, end to end: the real Pi CLI of each line, our
 * extension, a stdio MCP server from `.mcp.json`, and a scripted model that
 * searches for a tool and then calls it.
 */
import { recordedPids, toolResultTexts, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("finds and calls an MCP tool through the mcp proxy tool, and leaves no server running", async () => {
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir }) => ({ fixture: stdioFixtureEntry(pidDir) }),
      allowProjectServers: true,
      steps: [
        { toolCall: { name: "mcp", arguments: { search: "weather forecast" } } },
        { toolCall: { name: "mcp", arguments: { tool: "fixture_get_weather", args: { city: "Lisbon" } } } },
        { text: "It is sunny in Lisbon." },
      ],
    });
    const { model } = project;

    const run = await project.run("What is the weather in Lisbon?");

    expect(run.stderr).not.toMatch(/Failed to load extension|Error loading/i);
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(3);
    const declared = model.requests[0]!.tools?.map((t) => t.function.name) ?? [];
    expect(declared).toContain("mcp");
    const [searchResult] = toolResultTexts(model.requests[1]!);
    expect(searchResult).toContain("fixture_get_weather");
    const callResult = toolResultTexts(model.requests[2]!)[1];
    expect(callResult).toBe("Weather in Lisbon: 21°C, light breeze, clear skies.");

    const started = await recordedPids(project.pidDir);
    expect(started.length).toBeGreaterThan(0);
    expect(await waitForExit(started, 5000)).toEqual([]);
  });
});
