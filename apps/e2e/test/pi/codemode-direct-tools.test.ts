/**
 * Pi 1.x codemode reaches the adapter's tools, in real Pi 1.6 (codemode is a
 * built-in extension of that line only; Pi 0.73 has none): a scripted model
 * calls `codemode` with a script that calls a direct MCP tool and the `mcp`
 * proxy tool, and looks the server's namespace up by the server's name. A
 * probe extension records what Pi itself holds of the direct tools
 * (`pi.getAllTools()`: exposure, namespace, MCP annotations), not what a
 * recorded `registerTool` was handed.
 */
import { readFile, writeFile } from "node:fs/promises";
import { stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const SCRIPT = `
const echoed = await tools.fixture_echo({ text: "from codemode" });
const proxied = await tools.mcp({ tool: "fixture_add", args: { a: 2, b: 3 } });
const ns = await describeNamespace("fixture");
text(JSON.stringify({ echoed, proxied, namespace: ns && ns.name, listed: ALL_TOOLS.map((t) => t.name).filter((n) => n.startsWith("fixture_")) }));
`;

const PROBE = `
import { writeFileSync } from "node:fs";
export default function (pi) {
  pi.on("before_agent_start", () => {
    const mine = pi.getAllTools().filter((t) => t.name.startsWith("fixture_"));
    writeFileSync(process.env.PROBE_OUT, JSON.stringify(mine.map(({ name, exposure, namespace, annotations }) => ({ name, exposure, namespace, annotations }))));
  });
}
`;

describe.each(piHosts().filter((h) => h.nativeMcp))("$label", (host) => {
  it("a codemode script calls a direct MCP tool and the mcp proxy; Pi holds the tools' namespace and annotations", async () => {
    await using project = await createPiProject({
      host,
      steps: [{ toolCall: { name: "codemode", arguments: { code: SCRIPT } } }, { text: "Done." }],
      adapterConfig: {
        mcpServers: {
          fixture: { command: process.execPath, args: [stdioFixtureServerPath], directTools: true },
        },
      },
    });
    const probe = project.join("probe.mjs");
    const out = project.join("probe.json");
    await writeFile(probe, PROBE);
    const run = await project.run("Use codemode.", {
      extraArgs: ["-e", probe, "-e", "builtin:codemode", "--tools", "+codemode"],
      env: { PROBE_OUT: out },
    });
    expect(run.code, run.stderr).toBe(0);
    const result = toolResultTexts(project.model.requests[1]!).at(-1) ?? "";
    expect(result, result).toContain("Script completed");
    const payload = JSON.parse(result.slice(result.indexOf("{"), result.lastIndexOf("}") + 1));
    expect(payload.echoed).toContain("from codemode");
    expect(JSON.stringify(payload.proxied)).toContain("5");
    expect(payload.namespace).toBe("mcp__fixture");
    expect(payload.listed).toEqual(expect.arrayContaining(["fixture_echo", "fixture_get_weather"]));

    const held = JSON.parse(await readFile(out, "utf8")) as {
      name: string;
      exposure: string;
      namespace?: { name: string; aliases?: string[] };
      annotations?: Record<string, boolean>;
    }[];
    const weather = held.find((t) => t.name === "fixture_get_weather");
    expect(weather).toMatchObject({
      exposure: "direct",
      namespace: { name: "mcp__fixture", aliases: ["fixture"] },
      annotations: { readOnlyHint: true },
    });
    expect(held.every((t) => t.namespace?.name === "mcp__fixture")).toBe(true);
  }, 90_000);
});
