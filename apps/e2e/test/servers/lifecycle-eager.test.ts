/**
 * Eager servers through the real Pi CLI: the server is started at session
 * start, before the model asks for any tool, and the first `mcp({})` (which
 * never connects anything) already reports it connected; a lazy server next
 * to it is never started. Nothing is left running afterwards. Another
 * extension sees status snapshots on `pi.events`, ending with an empty one.
 */
import { existsSync, readdirSync } from "node:fs";

import { recordedPids, stdioFixtureServerPath, toolResultTexts, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { sleepSync, stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { writeStatusListener } from "../../src/status-listener.js";

/** Holds the model's answer until a pid file shows up in `dir` (or the deadline passes); true if it did. */
function waitForPidFile(dir: string, timeoutMs: number): boolean {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(dir) && readdirSync(dir).length > 0) return true;
    sleepSync(50);
  }
  return false;
}

describe.each(piHosts())("$label", (host) => {
  it("starts an eager server before the model's first tool call and leaves a lazy one alone", async () => {
    let startedBeforeFirstAnswer: boolean | undefined;
    await using project = await createPiProject({
      host,
      dirs: ["lazy-pids"],
      mcpServers: ({ pidDir, join }) => ({
        early: stdioFixtureEntry(pidDir, { lifecycle: "eager" }),
        later: stdioFixtureEntry(join("lazy-pids"), { lifecycle: "lazy" }),
      }),
      allowProjectServers: true,
      steps: [
        () => {
          // No tool has been called yet: only session start can have spawned the eager server.
          startedBeforeFirstAnswer = waitForPidFile(eagerPids, 15_000);
          // The pid file is written just before the server answers initialize.
          sleepSync(500);
          return { toolCall: { name: "mcp", arguments: {} } };
        },
        { text: "Done." },
      ],
    });
    const { model } = project;
    const eagerPids = project.pidDir;
    const lazyPids = project.join("lazy-pids");

    const run = await project.run("Which MCP servers are there?");

    expect(run.code, run.stderr).toBe(0);
    expect(startedBeforeFirstAnswer).toBe(true);
    expect(model.requests).toHaveLength(2);
    const [status] = toolResultTexts(model.requests[1]!);
    expect(status).toContain("- early: connected");
    expect(status).toContain("- later: not-connected");
    expect(await recordedPids(lazyPids)).toEqual([]);
    const started = await recordedPids(eagerPids);
    expect(started).toHaveLength(1);
    expect(await waitForExit(started, 5000)).toEqual([]);
  });

  it("publishes status snapshots to other extensions, ending with an empty one at shutdown", async () => {
    await using project = await createPiProject({
      host,
      mcpServers: {
        early: { command: process.execPath, args: [stdioFixtureServerPath], lifecycle: "eager" },
        later: { command: process.execPath, args: [stdioFixtureServerPath] },
      },
      allowProjectServers: true,
      steps: [
        () => {
          sleepSync(1500);
          return { toolCall: { name: "mcp", arguments: {} } };
        },
        { text: "Done." },
      ],
    });
    // A second extension that only listens, as a status-bar extension would.
    const listener = await writeStatusListener(project.join());

    const run = await project.run("Which MCP servers are there?", { extraArgs: ["-e", listener.extension] });

    expect(run.code, run.stderr).toBe(0);
    const snapshots = await listener.snapshots();
    expect(snapshots[0]?.servers.map((s) => s.name)).toEqual(["early", "later"]);
    const connected = snapshots.find((s) => s.connectedCount === 1);
    expect(connected?.servers).toEqual([
      { name: "early", status: "connected", toolCount: 0, disabled: false },
      { name: "later", status: "not-connected", toolCount: 0, disabled: false },
    ]);
    // Status never connects the lazy server.
    expect(
      snapshots.some((s) => s.servers.some((x) => x.name === "later" && x.status !== "not-connected")),
    ).toBe(false);
    expect(snapshots.at(-1)).toEqual({
      totalTools: 0,
      totalResources: 0,
      connectedCount: 0,
      disabledCount: 0,
      servers: [],
    });
  });
});
