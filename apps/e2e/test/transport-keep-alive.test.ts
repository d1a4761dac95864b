/**
 * A keep-alive server killed with SIGKILL between two model turns: the next
 * call through the real Pi CLI still succeeds, on a fresh server process.
 */
import { mkdir, writeFile } from "node:fs/promises";
import {
  createTempDir,
  isProcessAlive,
  recordedPids,
  startScriptedModel,
  toolResultTexts,
  waitForExit,
  writePiAgentDir,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { allowHeadlessProjectServers, sleepSync, stdioFixtureEntry } from "../src/fixtures.js";
import { piHosts, runPi } from "../src/pi-hosts.js";

describe.each(piHosts())("$label", (host) => {
  it("survives a keep-alive server killed between two turns", async () => {
    await using dir = await createTempDir();
    const project = dir.join("project");
    const pids = dir.join("pids");
    await mkdir(project);
    await mkdir(pids);
    await writeFile(
      dir.join("project", ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          fixture: stdioFixtureEntry(pids, { lifecycle: "keep-alive" }),
        },
      }),
    );
    let killed: number | undefined;
    const whoami = { toolCall: { name: "mcp", arguments: { tool: "fixture_whoami", args: {} } } };
    await using model = await startScriptedModel([
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
    ]);
    await writePiAgentDir(dir.join("agent"), model.baseUrl);
    await allowHeadlessProjectServers(dir.join("agent"));

    const run = await runPi({
      host,
      cwd: project,
      agentDir: dir.join("agent"),
      home: dir.join("home"),
      prompt: "Who serves you?",
    });

    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(3);
    expect(killed).toBeGreaterThan(0);
    const second = toolResultTexts(model.requests[2]!)[1] ?? "";
    expect(second).toMatch(/^pid \d+$/);
    expect(second).not.toBe(`pid ${killed}`);
    const started = await recordedPids(pids);
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(await waitForExit(started, 5000)).toEqual([]);
  });
});
