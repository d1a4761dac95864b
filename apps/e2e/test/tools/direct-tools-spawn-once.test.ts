/**
 * Issue 29, "spawn once": a server with direct tools and no cached metadata
 * (first run) is listed before Pi's first model request and then called by
 * the model. Its process starts once: the session lists it with the runtime
 * that later answers the call, so the pid that answers is the only pid that
 * ever started. Real Pi (both lines), the scripted model, servers recording
 * each start in `pidDir`:
 * 1. `--mode json`: the stdio fixture's `whoami` answers with the one pid.
 * 2. `--mode rpc`: the listing already has the session's dialogs, so
 *    server-everything offers its elicitation tool (it does so only to a
 *    client that can elicit), the direct call opens the form as a dialog,
 *    and the dismissal reaches the server as `cancel`.
 */
import { writeFile } from "node:fs/promises";
import { recordedPids, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { everythingPidEntry, everythingWrapperScript, stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { runRpcPrompt } from "../../src/rpc-messages.js";

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

  it("--mode rpc: the one listing has the session's dialogs, and a direct call opens them", async () => {
    const tool = "everything_trigger_elicitation_request";
    await using project = await createPiProject({
      host,
      adapterConfig: (paths) => ({
        mcpServers: {
          everything: everythingPidEntry(paths, { directTools: ["trigger-elicitation-request"] }),
        },
      }),
      steps: [{ toolCall: { name: tool, arguments: {} } }, { text: "Done." }],
    });
    await writeFile(project.join("everything.mjs"), everythingWrapperScript());

    const shown = await runRpcPrompt(project.rpc(), "Ask me something.", () => undefined);
    const requests = project.model.requests;
    expect(requests[0]?.tools?.map((t) => t.function.name)).toContain(tool);
    expect(shown[0]?.title).toContain('MCP server "everything" asks for input:');
    expect(toolResultTexts(requests[1]!)[0]).toContain('"action": "cancel"');
    expect(await recordedPids(project.pidDir)).toHaveLength(1);
  }, 120_000);
});
