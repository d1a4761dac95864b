/**
 * Tool names are not prefixed twice, in the real Pi (both lines) with a
 * scripted model: server-everything configured under the name `get`, whose
 * tools `get-sum` and `get-env` already start with it. The first request
 * declares the direct tool as `get_sum` (not `get_get_sum`), search shows
 * that name, and both the direct tool and the proxy call it by that name.
 */
import { writeFile } from "node:fs/promises";
import { toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { EVERYTHING_WRAPPER, mcpNames } from "./direct-tools-project.js";

describe.each(piHosts())("$label", (host) => {
  it("names a tool that already carries its server's name once: direct tool, search and proxy call", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ join, pidDir }) => ({
        mcpServers: {
          get: {
            command: process.execPath,
            args: [join("everything.mjs")],
            env: { FIXTURE_PID_DIR: pidDir },
            directTools: ["get-sum"],
          },
        },
      }),
      steps: [
        { toolCall: { name: "mcp", arguments: { search: "add two numbers", server: "get" } } },
        { toolCall: { name: "get_sum", arguments: { a: 2, b: 3 } } },
        { toolCall: { name: "mcp", arguments: { tool: "get_sum", args: { a: 4, b: 5 } } } },
        { text: "Done." },
      ],
    });
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);

    const run = await project.run("Add numbers.", { timeoutMs: 120_000 });

    expect(run.code, run.stderr).toBe(0);
    expect(mcpNames(run.requests[0], "get_")).toEqual(["get_sum", "mcp"]);
    const [search, direct, proxied] = toolResultTexts(run.requests[3]!);
    expect(search).toMatch(/^- get_sum: /m);
    expect(search).not.toContain("get_get_");
    expect(direct).toContain("5");
    expect(proxied).toContain("9");
  }, 180_000);
});
