/**
 * Config merging end to end: a server defined in the user-global
 * `~/.config/mcp/mcp.json` is overridden by the project's `.mcp.json`, and the
 * model, through the real Pi CLI of each line, reaches the project's version.
 * A headless run admits project servers only with the user-global
 * `settings.projectServers: "allow"`; without it the project server is skipped.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { recordedPids, stdioFixtureServerPath, toolResultTexts, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const fixture = (pidDir: string, name: string) => ({
  command: process.execPath,
  args: [stdioFixtureServerPath],
  env: { FIXTURE_PID_DIR: pidDir, FIXTURE_NAME: name },
});

describe.each(piHosts())("$label", (host) => {
  it("merges ~/.config/mcp/mcp.json with .mcp.json, the project's definition winning", async () => {
    await using project = await createPiProject({
      host,
      dirs: ["pids-global"],
      mcpServers: ({ pidDir }) => ({ fixture: fixture(pidDir, "project") }),
      allowProjectServers: true,
      steps: [
        { toolCall: { name: "mcp", arguments: {} } },
        { toolCall: { name: "mcp", arguments: { tool: "whoami", server: "fixture" } } },
        { text: "done" },
      ],
    });
    const { model } = project;
    const globalPids = project.join("pids-global");
    await mkdir(path.join(project.home, ".config", "mcp"), { recursive: true });
    await writeFile(
      path.join(project.home, ".config", "mcp", "mcp.json"),
      JSON.stringify({
        mcpServers: {
          fixture: fixture(globalPids, "global"),
          "global-only": fixture(globalPids, "global-only"),
        },
      }),
    );

    const run = await project.run("who serves fixture?");

    expect(run.code, run.stderr).toBe(0);
    const [status] = toolResultTexts(model.requests[1]!);
    expect(status).toContain("fixture");
    expect(status).toContain("global-only");
    const whoami = toolResultTexts(model.requests[2]!)[1];
    const started = await recordedPids(project.pidDir);
    expect(started).toHaveLength(1);
    expect(whoami).toBe(`pid ${started[0]}`);
    expect(await recordedPids(globalPids)).toEqual([]);
    expect(await waitForExit(started, 5000)).toEqual([]);
  });

  if (host.nativeMcp)
    it("Pi 1.x (the only line with project trust): reads no project file when Pi says the project is untrusted, even with projectServers: allow", async () => {
      await using project = await createPiProject({
        host,
        mcpServers: ({ pidDir }) => ({ fixture: fixture(pidDir, "project") }),
        allowProjectServers: true,
        steps: [{ toolCall: { name: "mcp", arguments: {} } }, { text: "done" }],
      });
      const { model } = project;
      // A protected .pi file leaves trust undecided, which a headless Pi 1.x run treats as untrusted.
      await mkdir(path.join(project.dir, ".pi"));
      await writeFile(path.join(project.dir, ".pi", "settings.json"), "{}");

      const run = await project.run("status");

      expect(run.code, run.stderr).toBe(0);
      const [status] = toolResultTexts(model.requests[1]!);
      expect(status).toContain(
        `${path.join(project.dir, ".mcp.json")}: not loaded: the project is not trusted`,
      );
      expect(status).not.toContain("- fixture");
      expect(await recordedPids(project.pidDir)).toEqual([]);
    });

  it("skips the unapproved project server in a headless run without projectServers: allow", async () => {
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir }) => ({ fixture: fixture(pidDir, "project") }),
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "whoami", server: "fixture" } } },
        { text: "done" },
      ],
    });
    const { model } = project;

    const run = await project.run("who serves fixture?");

    expect(run.code, run.stderr).toBe(0);
    const reply = toolResultTexts(model.requests[1]!).join("\n");
    expect(reply).toMatch(/Unknown MCP server "fixture"|No MCP tool/);
    expect(await recordedPids(project.pidDir)).toEqual([]);
  });
});
