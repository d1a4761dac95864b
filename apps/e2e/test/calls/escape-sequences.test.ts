/**
 * A hostile server's escape sequences (retitle, clear screen, bell) in its
 * tool name, descriptions, instructions and connect error reach the model
 * stripped in real Pi: search, describe, instructions and status.
 */
import { escapeServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const mcp = (args: Record<string, unknown>) => ({ toolCall: { name: "mcp", arguments: args } });

describe.each(piHosts())("$label", (host) => {
  it("describe, search, instructions and status carry none of a server's escape sequences", async () => {
    const server = { command: process.execPath, args: [escapeServerPath] };
    await using project = await createPiProject({
      host,
      adapterConfig: {
        mcpServers: { escape: server, broken: { ...server, env: { ESCAPE_FAIL: "1" } } },
      },
      steps: [
        mcp({ search: "paint wall" }),
        // The name the model sees: the escapes folded out of the tool's name.
        mcp({ describe: "escape_paint_0_pwned_2J_H_" }),
        mcp({ instructions: "escape" }),
        mcp({}),
        { text: "Done." },
      ],
    });
    const run = await project.run("Paint the wall.");
    expect(run.code, run.stderr).toBe(0);
    const texts = project.model.requests.slice(1).map((request) => toolResultTexts(request).at(-1) ?? "");
    expect(texts).toHaveLength(4);
    expect(texts[0]).toContain("- escape_paint_0_pwned_2J_H_: Paint a wall in a colour.");
    expect(texts[0]).toMatch(/server broken unavailable: .*fatal boom/);
    expect(texts[1]).toContain("- colour (string, optional): Colour name");
    expect(texts[2]).toContain("Use paint for colours.");
    expect(texts[3]).toContain("- broken: failed");
    for (const text of texts) expect(text).not.toMatch(CONTROL);
  });
});
