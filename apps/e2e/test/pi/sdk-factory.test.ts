/**
 * `createMcpAdapter({ config })` and `createMcpAdapter({ configPath })` run
 * through the factory in the real Pi: an embedder's extension file builds the
 * adapter with options and Pi loads only that file. An inline config is an
 * isolated snapshot (the user's files are not read); a `configPath` file is
 * merged above them and shapes the first request like any config.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../../src/fixtures.js";
import { extensionDir, piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";

const adapterEntry = path.join(extensionDir, "dist", "index.js");

/** An extension file that exports `createMcpAdapter(options)`. */
async function embedder(project: PiProject, options: unknown): Promise<string> {
  const file = project.join("embedder.ts");
  await writeFile(
    file,
    `import { createMcpAdapter } from ${JSON.stringify(adapterEntry)};
export default createMcpAdapter(${JSON.stringify(options)});
`,
  );
  return file;
}

describe.each(piHosts())("$label", (host) => {
  it("createMcpAdapter({ config }) serves the inline servers only", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ pidDir }) => ({ mcpServers: { fromfile: stdioFixtureEntry(pidDir) } }),
      steps: [
        { toolCall: { name: "mcp", arguments: {} } },
        { toolCall: { name: "mcp", arguments: { tool: "inline_whoami" } } },
        { text: "done" },
      ],
    });
    const extension = await embedder(project, {
      config: { mcpServers: { inline: stdioFixtureEntry(project.pidDir) } },
    });

    const run = await project.run("who?", { extension });
    expect(run.code, run.stderr).toBe(0);
    const [status] = toolResultTexts(run.requests[1]!);
    expect(status).toContain("inline");
    expect(status).not.toContain("fromfile");
    expect(toolResultTexts(run.requests[2]!)[1]).toMatch(/^pid \d+$/);
  });

  it("createMcpAdapter({ configPath }) merges the file above the user's and applies it at start-up", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ pidDir }) => ({ mcpServers: { fromfile: stdioFixtureEntry(pidDir) } }),
      steps: [
        { toolCall: { name: "everything_get_sum", arguments: { a: 6, b: 7 } } },
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "done" },
      ],
    });
    const configPath = project.join("embedder-mcp.json");
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [serverEverythingPath], directTools: ["get-sum"] },
        },
      }),
    );
    const extension = await embedder(project, { configPath });

    const run = await project.run("6 + 7?", { extension });
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests[0]?.tools?.map((t) => t.function.name)).toContain("everything_get_sum");
    expect(toolResultTexts(run.requests[1]!)[0]).toContain("The sum of 6 and 7 is 13");
    const status = toolResultTexts(run.requests[2]!)[1];
    expect(status).toContain("everything");
    expect(status).toContain("fromfile");
  });
});
