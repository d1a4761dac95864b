/**
 * One slow server must not slow the others, through the real Pi CLI: beside
 * a server that was started and never answers `initialize` (the hostile
 * fixture writes a marker file when it starts and another when initialize
 * arrives), three calls to a healthy server all return, and the status the
 * model reads after them still shows the hanging server connecting — so none
 * of the calls waited for it. No elapsed time is measured.
 */
import { existsSync } from "node:fs";
import { hostileServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../src/fixtures.js";
import { piHosts } from "../src/pi-hosts.js";
import { createPiProject } from "../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("calls a healthy server three times while a hanging server is still in initialize", async () => {
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
      steps: [add(1), add(2), add(3), { toolCall: { name: "mcp", arguments: {} } }, { text: "Done." }],
    });

    const run = await project.run("Add some numbers.");

    expect(run.code, run.stderr).toBe(0);
    const results = project.model.requests.slice(1, 4).map((request) => toolResultTexts(request).at(-1));
    expect(results).toEqual(["2", "3", "4"]);
    const status = toolResultTexts(project.model.requests[4]!).at(-1);
    expect(status).toContain("- good: connected");
    expect(status).toContain("- hang: connecting");
    // The hanging server had been started and asked to initialize: its connect was really pending.
    expect(existsSync(project.join("markers", "started"))).toBe(true);
    expect(existsSync(project.join("markers", "initialize"))).toBe(true);
  });
});
