/**
 * Servers' log messages (`notifications/message`) go to `mcp-adapter.log` in
 * Pi's agent directory, never to the terminal; with `PI_MCP_ADAPTER_DEBUG=1`
 * the adapter's own debug lines join them there.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it.each([
    { debug: false, label: "a server's log message lands in mcp-adapter.log" },
    { debug: true, label: "PI_MCP_ADAPTER_DEBUG=1 adds the adapter's debug lines" },
  ])("$label", async ({ debug }) => {
    await using project = await createPiProject({
      host,
      adapterConfig: {
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      },
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "everything_toggle-simulated-logging" } } },
        { text: "done" },
      ],
    });
    const run = await project.run("log something", debug ? { env: { PI_MCP_ADAPTER_DEBUG: "1" } } : {});
    expect(run.code, run.stderr).toBe(0);
    const log = await readFile(path.join(project.agentDir, "mcp-adapter.log"), "utf8");
    // The tool sends one message (of a random level) before it answers.
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[everything\] \w+: \w+[- ]level[- ]message$/im);
    expect(run.stderr).not.toMatch(/level[- ]message/i);
    if (debug) expect(log).toMatch(/\[pi-mcp-adapter\] debug: everything: connected$/m);
    else expect(log).not.toContain("[pi-mcp-adapter]");
  });
});
