/**
 * A keep-alive server killed with SIGKILL between two model turns: the next
 * call through the real Pi CLI still succeeds, on a fresh server process.
 */
import { isProcessAlive, recordedPids, toolResultTexts, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { sleepSync, stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("survives a keep-alive server killed between two turns", async () => {
    let killed: number | undefined;
    const whoami = { toolCall: { name: "mcp", arguments: { tool: "fixture_whoami", args: {} } } };
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir }) => ({ fixture: stdioFixtureEntry(pidDir, { lifecycle: "keep-alive" }) }),
      allowProjectServers: true,
      steps: [
        whoami,
        (request) => {
          const [first] = toolResultTexts(request);
          killed = Number(/pid (\d+)/.exec(first ?? "")?.[1]);
          if (killed > 0) {
            process.kill(killed, "SIGKILL");
            while (isProcessAlive(killed)) sleepSync(20);
            sleepSync(200); // give the extension's event loop a moment to see the pipes close
          }
          return whoami;
        },
        { text: "done" },
      ],
    });
    const { model } = project;

    const run = await project.run("Who serves you?");

    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(3);
    expect(killed).toBeGreaterThan(0);
    const second = toolResultTexts(model.requests[2]!)[1] ?? "";
    expect(second).toMatch(/^pid \d+$/);
    expect(second).not.toBe(`pid ${killed}`);
    const started = await recordedPids(project.pidDir);
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(await waitForExit(started, 5000)).toEqual([]);
  });
});
