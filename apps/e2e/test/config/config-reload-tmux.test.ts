/**
 * A server added to the adapter's config file during an interactive Pi
 * session (tmux, both Pi lines, the scripted model): calling its tool fails
 * naming the changed file and `/reload`; after the user types `/reload`
 * the same call runs. So the command the message names is the one that
 * applies the change.
 */
import { writeFile } from "node:fs/promises";
import { stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { startPiInTmux, type TmuxSession } from "../panel/panel-tmux-session.js";

const server = { command: process.execPath, args: [stdioFixtureServerPath] };
const callOther = { toolCall: { name: "mcp", arguments: { tool: "other_echo", args: { text: "hi" } } } };

/** Types a line and submits it (Escape first closes Pi's completion list). */
function submit(term: TmuxSession, line: string): void {
  term.type(line);
  term.keys("Escape");
  term.keys("Enter");
}

describe.each(piHosts())("a config file changed mid-session on $label", (host) => {
  it("the unknown tool's error names /reload, and after /reload the tool runs", async () => {
    await using project = await createPiProject({
      host,
      steps: [callOther, { text: "It failed." }, callOther, { text: "It echoed." }],
      adapterConfig: { mcpServers: { fixture: server } },
    });
    const term = startPiInTmux(host, project);
    try {
      await term.waitFor("Pi's editor", (s) => s.includes("MCP:"), 60_000);
      const configFile = project.join("agent", "mcp-adapter.json");
      await writeFile(configFile, JSON.stringify({ mcpServers: { fixture: server, other: server } }));

      submit(term, "Echo hi with the other server.");
      await term.waitFor("the first answer", (s) => s.includes("It failed."), 60_000);
      const refusal = toolResultTexts(project.model.requests[1]!).at(-1) ?? "";
      expect(refusal).toContain('No MCP tool named "other_echo".');
      expect(refusal).toContain(`${configFile} changed since this session started; run /reload to apply it.`);

      submit(term, "/reload");
      await term.waitFor("the reload", (s) => /reloaded/i.test(s), 60_000);
      submit(term, "Try again.");
      await term.waitFor("the second answer", (s) => s.includes("It echoed."), 60_000);
      expect(toolResultTexts(project.model.requests[3]!).at(-1)).toBe("hi");
    } finally {
      term.kill();
    }
  });
});
