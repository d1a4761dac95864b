/**
 * A server added to the adapter's config file during a Pi session (both Pi
 * lines, json mode): the model's call of its tool fails with "No MCP tool
 * named …", and the message says the file changed since the session
 * started and that `/reload` applies it. The file is written by the
 * scripted model's step, between two turns of one run.
 */
import { writeFileSync } from "node:fs";
import { stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const server = { command: process.execPath, args: [stdioFixtureServerPath] };

describe.each(piHosts())("$label", (host) => {
  it("a tool of a server added mid-session: the error names the changed file and /reload", async () => {
    let configFile = "";
    await using project = await createPiProject({
      host,
      adapterConfig: ({ agentDir }) => {
        configFile = `${agentDir}/mcp-adapter.json`;
        return { mcpServers: { fixture: server } };
      },
      steps: [
        { toolCall: { name: "mcp", arguments: { search: "echo" } } },
        () => {
          writeFileSync(configFile, JSON.stringify({ mcpServers: { fixture: server, other: server } }));
          return { toolCall: { name: "mcp", arguments: { tool: "other_echo", args: { text: "hi" } } } };
        },
        { text: "Done." },
      ],
    });
    const run = await project.run("Echo hi with the other server.");
    expect(run.code, run.stderr).toBe(0);
    const refusal = toolResultTexts(run.requests.at(-1)!).at(-1) ?? "";
    expect(refusal).toContain('No MCP tool named "other_echo".');
    expect(refusal).toContain(`${configFile} changed since this session started; run /reload to apply it.`);
  });
});
