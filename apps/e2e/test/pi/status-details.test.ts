/**
 * What status and search say in real Pi (both lines, json mode, the scripted
 * model): `mcp({})` names each server's config file and how long its last
 * connect took, and hints where an MCP name is also one of Pi's own tools (a
 * server called `bash`, a tool the model calls `read`); search names a
 * project server awaiting approval ("requires approval") instead of leaving
 * it out silently.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const mcp = (args: Record<string, unknown>) => ({ toolCall: { name: "mcp", arguments: args } });

describe.each(piHosts())("$label", (host) => {
  it("mcp({}) shows source file, last connect and Pi-name hints; search names a server awaiting approval", async () => {
    await using project = await createPiProject({
      host,
      steps: [
        mcp({ search: "read echo" }),
        mcp({ tool: "bash_echo", args: { text: "hi" } }),
        mcp({}),
        { text: "Done." },
      ],
      adapterConfig: (p) => ({
        mcpServers: {
          bash: { command: process.execPath, args: [stdioFixtureServerPath] },
          files: {
            command: process.execPath,
            args: [stdioFixtureServerPath],
            env: { FIXTURE_TOOLS_FILE: p.join("tools.json") },
            toolPrefix: "none",
          },
        },
      }),
      // A project server, never approved: json mode does not ask, so it is left out.
      mcpServers: { proj: { command: process.execPath, args: [stdioFixtureServerPath] } },
    });
    await writeFile(project.join("tools.json"), JSON.stringify({ read: { description: "Read a file." } }));
    const run = await project.run("Look around.");
    expect(run.code, run.stderr).toBe(0);
    const search = toolResultTexts(project.model.requests[1]!).at(-1);
    expect(search).toContain(
      `server "proj" requires approval (a project server from ${path.join(project.dir, ".mcp.json")}; not searched): approve it with pi-mcp-adapter trust proj, then /mcp-adapter reload`,
    );
    expect(toolResultTexts(project.model.requests[2]!).at(-1)).toBe("hi");
    const status = toolResultTexts(project.model.requests[3]!).at(-1) ?? "";
    const userFile = path.join(project.agentDir, "mcp-adapter.json");
    expect(status).toMatch(/- bash: connected, \d+ tools/);
    expect(status).toMatch(
      new RegExp(`\\n  from ${userFile.replaceAll(".", "\\.")} · last connect \\d+(\\.\\d)? (ms|s)\\n`),
    );
    expect(status).toContain(`- files: `);
    expect(status).toContain(
      `hint: MCP server "bash" has the name of Pi's own bash tool; its tools are MCP tools (mcp({server: "bash"}) lists them), not Pi's bash.`,
    );
    expect(status).toContain(
      `hint: MCP tool "read" (server files) has the name of Pi's own read tool: call it as mcp({tool: "read"}); a bare read call runs Pi's.`,
    );
  }, 90_000);
});
