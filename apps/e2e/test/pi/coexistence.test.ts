/**
 * Pi 1.6 ships its own MCP support (`builtin:mcp`): it owns `/mcp` and Pi's
 * `mcp.json`. With both loaded, the adapter must not take `/mcp`, must not read
 * Pi's `mcp.json`, and must not start any server twice. On Pi 0.73, which has
 * no MCP of its own, the adapter offers `/mcp` as an alias.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { recordedPids, toolResultTexts, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../../src/fixtures.js";
import { type PiHost, piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const [olderPi, currentPi] = piHosts() as [PiHost, PiHost];

describe("beside Pi 1.6's built-in MCP", () => {
  it("keeps to .mcp.json and /mcp-adapter while the built-in owns mcp.json and /mcp", async () => {
    await using project = await createPiProject({
      host: currentPi,
      dirs: ["pids-native"],
      mcpServers: ({ pidDir }) => ({ fixture: stdioFixtureEntry(pidDir) }),
      allowProjectServers: true,
      steps: [
        { toolCall: { name: "mcp", arguments: {} } },
        { toolCall: { name: "mcp", arguments: { tool: "fixture_whoami" } } },
        { text: "done" },
      ],
    });
    const { model } = project;
    const ours = project.pidDir;
    const native = project.join("pids-native");
    // Pi's own config: only the built-in should ever start this server.
    await writeFile(
      path.join(project.agentDir, "mcp.json"),
      JSON.stringify({ mcpServers: { native: stdioFixtureEntry(native) } }),
    );

    const run = await project.run("who are you?", { extraArgs: ["-e", "builtin:mcp"] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/\/mcp/);

    const declared = model.requests[0]?.tools?.map((t) => t.function.name) ?? [];
    expect(declared.filter((name) => name === "mcp")).toHaveLength(1);
    const [status] = toolResultTexts(model.requests[1]!);
    expect(status).toContain("- fixture: not-connected");
    expect(status).not.toContain("native");
    const whoami = toolResultTexts(model.requests[2]!)[1];
    const ourPids = await recordedPids(ours);
    expect(ourPids).toHaveLength(1);
    expect(whoami).toBe(`pid ${ourPids[0]}`);
    expect(await waitForExit([...ourPids, ...(await recordedPids(native))])).toEqual([]);
  });
});

describe("commands", () => {
  async function commandNames(host: PiHost, withBuiltinMcp: boolean): Promise<string[]> {
    await using project = await createPiProject({ host });
    const child = project.rpc({ extraArgs: withBuiltinMcp ? ["-e", "builtin:mcp"] : [] });
    const lines = createInterface({ input: child.stdout });
    child.stdin.write(`${JSON.stringify({ id: "1", type: "get_commands" })}\n`);
    try {
      for await (const line of lines) {
        const message = JSON.parse(line) as {
          type?: string;
          id?: string;
          data?: { commands?: { name: string }[] };
        };
        if (message.type === "response" && message.id === "1") {
          return (message.data?.commands ?? []).map((c) => c.name);
        }
      }
      throw new Error("pi exited without answering get_commands");
    } finally {
      child.kill();
    }
  }

  it("Pi 1.6 with built-in MCP: /mcp-adapter is ours, /mcp stays the built-in's", async () => {
    const names = await commandNames(currentPi, true);
    expect(names).toContain("mcp-adapter");
    expect(names.filter((n) => n === "mcp")).toHaveLength(1);
    const without = await commandNames(currentPi, false);
    expect(without).toContain("mcp-adapter");
    expect(without).not.toContain("mcp");
  });

  it("Pi 0.73 without MCP of its own: /mcp is the adapter's alias", async () => {
    const names = await commandNames(olderPi, false);
    expect(names).toContain("mcp-adapter");
    expect(names).toContain("mcp");
  });
});
