/**
 * `--mcp-config <file>` at start-up: Pi parses extension flags only after the
 * extensions have loaded, so the adapter reads the flag from the process's
 * arguments for its startup snapshot. The file's direct tools, `scriptMode`
 * and `disableProxyTool` then shape the very first request.
 */
import { writeFile } from "node:fs/promises";
import { serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const [olderPi, currentPi] = piHosts();

describe.each([
  { host: olderPi!, form: "--mcp-config <file>" },
  { host: currentPi!, form: "--mcp-config=<file>" },
])("$host.label, written $form", ({ host, form }) => {
  it("applies the file's direct tools, scriptMode and disableProxyTool to the first request", async () => {
    await using project = await createPiProject({
      host,
      steps: [{ toolCall: { name: "everything_get_sum", arguments: { a: 4, b: 5 } } }, { text: "9" }],
    });
    const file = project.join("team-mcp.json");
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [serverEverythingPath], directTools: ["get-sum"] },
        },
        settings: { scriptMode: true, disableProxyTool: true },
      }),
    );
    const flag = form.includes("=") ? [`--mcp-config=${file}`] : ["--mcp-config", file];

    const run = await project.run("4 + 5?", { extraArgs: flag });
    expect(run.code, run.stderr).toBe(0);
    const declared = run.requests[0]?.tools?.map((t) => t.function.name) ?? [];
    expect(declared).toContain("everything_get_sum");
    expect(declared).toContain("mcpScript");
    expect(declared).not.toContain("mcp");
    expect(toolResultTexts(run.requests[1]!)[0]).toContain("The sum of 4 and 5 is 9");
  });
});
