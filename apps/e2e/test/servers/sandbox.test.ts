/**
 * A sandboxed stdio server (`sandbox: true`) in real Pi, through the proxy
 * tool: its tool writes inside its cwd, is refused outside it, and status
 * says the server is sandboxed. Runs under the real bubblewrap; skipped only
 * where bwrap cannot run (the reason is printed).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { sandboxProbeServerPath, skipNotice, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { sandboxUnavailableReason } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const unavailable = await sandboxUnavailableReason();
const reason = skipNotice("sandbox tests in Pi", unavailable);

const call = (tool: string, args: Record<string, unknown>) => ({
  toolCall: { name: "mcp", arguments: { tool, args } },
});

describe.skipIf(reason !== "").each(piHosts())(`$label${reason}`, (host) => {
  it("a sandboxed server's tool writes inside its cwd and is refused outside it", async () => {
    await using project = await createPiProject({
      host,
      dirs: ["work", "outside"],
      adapterConfig: ({ join }) => ({
        mcpServers: {
          probe: {
            command: process.execPath,
            args: [sandboxProbeServerPath],
            cwd: join("work"),
            sandbox: true,
          },
        },
      }),
      // Paths relative to the server's cwd (the project's paths are not known before it exists).
      steps: [
        call("probe_write_file", { path: "inside.txt", text: "written in the sandbox" }),
        call("probe_write_file", { path: "../outside/escaped.txt", text: "must not land" }),
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "Done." },
      ],
    });
    const run = await project.run("Write the files.");
    expect(run.code, run.stderr).toBe(0);
    const { requests } = project.model;
    expect(requests).toHaveLength(4);
    expect(toolResultTexts(requests[1]!).at(-1)).toBe("ok");
    expect(await readFile(project.join("work", "inside.txt"), "utf8")).toBe("written in the sandbox");
    expect(toolResultTexts(requests[2]!).at(-1)).toMatch(/^error EROFS/);
    expect(existsSync(project.join("outside", "escaped.txt"))).toBe(false);
    expect(toolResultTexts(requests[3]!).at(-1)).toContain("- probe: connected (sandboxed)");
  });
});
