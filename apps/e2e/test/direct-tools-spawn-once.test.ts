/**
 * Issue 29, "spawn once": a server with direct tools and no cached metadata
 * (first run) is listed before Pi's first model request and then called by
 * the model. Its process starts once: the session lists it with the runtime
 * that later answers the call, so the pid that answers is the only pid that
 * ever started. Real Pi (both lines, json mode), the scripted model, and the
 * stdio fixture server recording each start in `pidDir`.
 */
import { recordedPids, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../src/fixtures.js";
import { piHosts } from "../src/pi-hosts.js";
import { createPiProject } from "../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("a cold server listed for direct tools is started once, and its direct call reaches the model", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ pidDir }) => ({
        mcpServers: { fixture: stdioFixtureEntry(pidDir, { directTools: ["whoami"] }) },
      }),
      steps: [{ toolCall: { name: "fixture_whoami", arguments: {} } }, { text: "Done." }],
    });

    const run = await project.run("Which process are you?");
    expect(run.code, run.stderr).toBe(0);
    // Declared in the first request although nothing was cached: it was listed before it.
    expect(run.requests[0]?.tools?.map((t) => t.function.name)).toContain("fixture_whoami");
    const pids = await recordedPids(project.pidDir);
    expect(pids).toHaveLength(1);
    expect(toolResultTexts(run.requests[1]!)).toEqual([`pid ${pids[0]}`]);
  }, 120_000);
});
