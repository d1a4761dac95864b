/**
 * The `/mcp-adapter` panel and the footer in a real terminal: Pi's
 * interactive mode in tmux, on both Pi lines, with the scripted model and
 * two servers from the user-level adapter config — `fixture` (eager, so it
 * connects at start) and `broken` (eager, its command exits at once, so it
 * fails). The test reads the screen as a user would: the footer's status
 * line, the panel's rows and states, a server expanded to its tools; a
 * toggle saved with ctrl+s must land in `.pi/mcp-adapter.json` (and only
 * there), and Escape must close the panel. Each server row shows its token
 * cost (per request, and with all its tools direct). The change applies live: the
 * next prompt declares the tool made direct, and its result is drawn as a
 * compact row while the model receives the whole text. A second project
 * checks the settings: `mcpFooterStatus: "compact"`, `notifyOnStartupConnect:
 * false`, and `mcp.panel.save` remapped in Pi's keybindings.json.
 */
import { readFile, writeFile } from "node:fs/promises";
import { toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { startPiInTmux } from "./panel-tmux-session.js";

describe.each(piHosts())("the /mcp-adapter panel in a terminal on $label", (host) => {
  it("draws both servers, expands one, saves a toggle with ctrl+s, closes on Escape; the footer shows status", async () => {
    await using project = await createPiProject({
      host,
      // After the panel: the model calls the tool the panel made direct, with a three-line text.
      steps: [{ toolCall: { name: "fixture_echo", arguments: { text: "line one\nline two\nline three" } } }],
      adapterConfig: ({ pidDir }) => ({
        mcpServers: {
          fixture: stdioFixtureEntry(pidDir, { lifecycle: "eager" }),
          broken: { command: process.execPath, args: ["-e", "process.exit(3)"], lifecycle: "eager" },
        },
      }),
    });
    const term = startPiInTmux(host, project);
    try {
      // The footer: one of two connected, one failed (after both eager connects settle).
      await term.waitFor("the footer status", (s) => s.includes("MCP: 1/2 connected, 1 failed"), 60_000);

      term.type("/mcp-adapter");
      await term.waitFor("the command in the editor", (s) => s.includes("/mcp-adapter"));
      // Escape the command's completion list first, then submit.
      term.keys("Escape");
      term.keys("Enter");
      const panel = await term.waitFor("the panel", (s) => s.includes("MCP servers") && s.includes("broken"));
      expect(panel).toMatch(/fixture\s+connected\s+4 tools\s+proxy/);
      expect(panel).toMatch(/broken\s+failed\s+0 tools/);
      // Each server's token cost: per request now (its roster entry) and with all its tools direct.
      await term.waitFor("the token cost column", (s) =>
        /fixture\s+connected\s+4 tools\s+proxy\s+~\d+ tok\/request \(all direct ~[\d,]+\)/.test(s),
      );

      // Down to `broken`, up again to `fixture`, Enter expands it to its tools.
      term.keys("Down");
      await term.waitFor("the cursor on broken", (s) => /› ▸ broken/.test(s));
      term.keys("Up");
      await term.waitFor("the cursor on fixture", (s) => /› ▸ fixture/.test(s));
      term.keys("Enter");
      const expanded = await term.waitFor("fixture's tools", (s) => s.includes("get_weather"));
      expect(expanded).toMatch(/\[ \] echo\s+proxy/);
      expect(expanded).toContain("whoami");

      // The first tool (`echo`) becomes direct; ctrl+s saves it.
      term.keys("Down");
      await term.waitFor("the cursor on echo", (s) => /› .*echo/.test(s));
      term.keys("Space");
      await term.waitFor(
        "the pending toggle",
        (s) => /\[x\] echo\s+direct/.test(s) && s.includes("1 unsaved change"),
      );
      term.keys("C-s");
      // The project file now has a say in `fixture`'s definition: the project-server rule asks once.
      await term.waitFor("the project-server approval", (s) => s.includes("Allow project MCP server?"));
      const saved = JSON.parse(await readFile(project.join("project", ".pi", "mcp-adapter.json"), "utf8"));
      expect(saved).toEqual({ mcpServers: { fixture: { directTools: ["echo"] } } });
      // The user's own file is untouched.
      const user = JSON.parse(await readFile(project.join("agent", "mcp-adapter.json"), "utf8"));
      expect(user.mcpServers.fixture.directTools).toBeUndefined();

      term.keys("Enter");
      // The panel comes back where it was, once the change is applied.
      await term.waitFor(
        "the save message",
        (s) => s.includes("Saved to") && s.includes("applied to this session"),
      );
      // After the live reload the server row reads "some direct".
      await term.waitFor("the applied change", (s) => /fixture\s+\S+\s+4 tools\s+some direct/.test(s));

      term.keys("Escape");
      const closed = await term.waitFor("the panel to close", (s) => !s.includes("MCP servers"));
      expect(closed).toMatch(/MCP: \d\/2 connected/);

      // Applied live: the next request declares `fixture_echo`; its result shows as a compact row
      // (title, first line, expand hint) while the model receives all three lines.
      term.type("Echo three lines.");
      term.keys("Enter");
      const row = await term.waitFor("the compact result row", (s) => s.includes("2 more lines"), 60_000);
      expect(row).toContain('fixture: echo text="line one\\nline two\\nline three"');
      expect(row).toMatch(/⎿ line one\s*\n\s*… 2 more lines \(.*to expand\)/);
      expect(row).not.toContain("line three\n");
      await term.waitFor("the answer", (s) => s.includes("Done."), 60_000);
      const [first, second] = project.model.requests;
      expect(first?.tools?.map((t) => t.function.name)).toContain("fixture_echo");
      expect(toolResultTexts(second!)).toEqual(["line one\nline two\nline three"]);
    } finally {
      term.kill();
    }
  });
  it("compact footer, no routine connect notice, and a save key remapped in keybindings.json", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ pidDir }) => ({
        settings: { mcpFooterStatus: "compact", notifyOnStartupConnect: false },
        mcpServers: {
          one: stdioFixtureEntry(pidDir, { lifecycle: "eager" }),
          two: stdioFixtureEntry(pidDir, { lifecycle: "eager" }),
        },
      }),
    });
    await writeFile(
      project.join("agent", "keybindings.json"),
      JSON.stringify({ "mcp.panel.save": "ctrl+w" }),
    );
    const term = startPiInTmux(host, project);
    try {
      const started = await term.waitFor("the compact footer", (s) => s.includes("● MCP 2/2"), 60_000);
      expect(started).not.toContain("MCP: connected");

      term.type("/mcp-adapter");
      await term.waitFor("the command in the editor", (s) => s.includes("/mcp-adapter"));
      term.keys("Escape");
      term.keys("Enter");
      await term.waitFor("the panel with the remapped save key", (s) => s.includes("ctrl+w save"));
      term.keys("Down");
      term.type("e");
      await term.waitFor(
        "two disabled, unsaved",
        (s) => /two\s+disabled/.test(s) && s.includes("1 unsaved change"),
      );
      // The remapped key saves (that ctrl+s then does not is the panel-keys unit test's).
      term.keys("C-w");
      await term.waitFor("the save", (s) => s.includes("applied to this session"));
      const saved = JSON.parse(await readFile(project.join("project", ".pi", "mcp-adapter.json"), "utf8"));
      expect(saved).toEqual({ mcpServers: { two: { disabled: true } } });
      await term.waitFor("the footer without two", (s) => s.includes("● MCP 1/1"));
      term.keys("Escape");
      await term.waitFor("the panel to close", (s) => !s.includes("MCP servers"));
    } finally {
      term.kill();
    }
  });
});
