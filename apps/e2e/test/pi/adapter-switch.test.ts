/**
 * One switch turns the adapter off for a run, on both Pi lines: the flag
 * `--no-mcp-adapter` or `PI_MCP_ADAPTER_DISABLED=1`. Pi then runs as if the
 * extension were not there: no `mcp` tool, no server started, no error.
 */
import { recordedPids } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it.each([
    { how: "--no-mcp-adapter", extra: { extraArgs: ["--no-mcp-adapter"] } },
    { how: "PI_MCP_ADAPTER_DISABLED=1", extra: { env: { PI_MCP_ADAPTER_DISABLED: "1" } } },
  ])("$how leaves the adapter out of the run", async ({ extra }) => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ pidDir }) => ({
        mcpServers: { fixture: stdioFixtureEntry(pidDir, { lifecycle: "eager" }) },
      }),
      steps: [{ text: "hello" }, { text: "hello" }],
    });
    const off = await project.run("hi", extra);
    expect(off.code, off.stderr).toBe(0);
    expect(off.requests[0]?.tools?.map((t) => t.function.name) ?? []).not.toContain("mcp");
    expect(await recordedPids(project.pidDir)).toEqual([]);

    // The same project without the switch has the adapter (the test can tell the difference).
    const on = await project.run("hi");
    expect(on.requests[0]?.tools?.map((t) => t.function.name)).toContain("mcp");
  });
});
