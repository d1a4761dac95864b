/**
 * One slow server must not slow the others, through the real Pi CLI: beside
 * a server that was started and never answers `initialize` (the hostile
 * fixture writes a marker file when it starts and another when initialize
 * arrives), three calls to a healthy server all return — the second and
 * third only once the hanging server has its initialize — and the status the
 * model reads after them still shows the hanging server connecting, so none
 * of the calls waited for it. No elapsed time is measured.
 */
import { existsSync } from "node:fs";
import { hostileServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { sleepSync, stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

/** Holds the scripted model's answer until `file` exists (or the deadline passes); true if it did. */
function waitForFile(file: string, timeoutMs: number): boolean {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) return false;
    sleepSync(50);
  }
  return true;
}

describe.each(piHosts())("$label", (host) => {
  it("calls a healthy server three times while a hanging server is still in initialize", async () => {
    let initializeSeen = false;
    const add = (a: number) => ({
      toolCall: { name: "mcp", arguments: { tool: "good_add", args: { a, b: 1 } } },
    });
    await using project = await createPiProject({
      host,
      dirs: ["markers"],
      mcpServers: ({ pidDir, join }) => ({
        hang: {
          command: process.execPath,
          args: [hostileServerPath],
          env: { HOSTILE_MODE: "hang-initialize", HOSTILE_MARKER_DIR: join("markers") },
          // Anything that waited for this connect would wait out the whole test.
          requestTimeoutMs: 600_000,
        },
        good: stdioFixtureEntry(pidDir),
      }),
      allowProjectServers: true,
      steps: [
        add(1),
        () => {
          // The first call started both servers: hold the next calls until the hanging one has its initialize.
          initializeSeen = waitForFile(project.join("markers", "initialize"), 30_000);
          return add(2);
        },
        add(3),
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "Done." },
      ],
    });

    const run = await project.run("Add some numbers.");

    expect(run.code, run.stderr).toBe(0);
    const results = project.model.requests.slice(1, 4).map((request) => toolResultTexts(request).at(-1));
    expect(results).toEqual(["2", "3", "4"]);
    const status = toolResultTexts(project.model.requests[4]!).at(-1);
    expect(status).toContain("- good: connected");
    expect(status).toContain("- hang: connecting");
    // Calls 2 and 3 ran after the hanging server had its initialize, and it was still connecting after them.
    expect(initializeSeen).toBe(true);
    expect(existsSync(project.join("markers", "started"))).toBe(true);
  });
});
