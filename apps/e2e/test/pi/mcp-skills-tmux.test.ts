/**
 * The approval dialog of an MCP skill as Pi draws it in its interactive mode,
 * in a real terminal (tmux), on both Pi lines, with the skills fixture server:
 * when the model loads a skill, the dialog names the skill, its server and
 * each file the answer covers with its size (not the generic tool wording),
 * and "Allow once" lets the skill reach the model.
 */
import { FIXTURE_SKILLS, toolResultTexts, writeSkillsFixture } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { skillsFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { startPiInTmux } from "../panel/panel-tmux-session.js";

const bytes = (text: string | undefined) => Buffer.byteLength(text ?? "");

describe.each(piHosts())("the skill approval dialog in a terminal on $label", (host) => {
  it("names the skill, its server and its files with their sizes; Allow once loads it", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: (p) => ({ mcpServers: { docs: skillsFixtureEntry(p) } }),
      steps: [
        { toolCall: { name: "mcp", arguments: { server: "docs" } } },
        { text: "Listed." },
        { toolCall: { name: "mcp", arguments: { action: "skill", args: { name: "docs-pdf-processing" } } } },
        { text: "Loaded the skill." },
      ],
    });
    await writeSkillsFixture(project.join("skills"));
    const listed = await project.run("What does the docs server offer?");
    expect(listed.code, listed.stderr).toBe(0);

    const term = startPiInTmux(host, project);
    try {
      // Pi takes a prompt only once its start-up is over (1.6 first looks for fd and ripgrep and
      // answers Enter with "Startup is still in progress"); the extension's footer status is set at
      // session start, after that, so it is the sign that Enter will submit.
      await term.waitFor("the extension's footer status", (s) => s.includes("MCP:"), 60_000);
      term.type("Fill the PDF form.");
      await term.waitFor("the prompt in the editor", (s) => s.includes("Fill the PDF form."));
      term.keys("Enter");
      const dialog = await term.waitFor("the approval dialog", (s) => s.includes("Allow once"), 60_000);
      const files = FIXTURE_SKILLS["pdf-processing"]!;
      const flat = dialog.replace(/\s+/g, " ");
      expect(flat).toContain(
        "Load MCP skill docs-pdf-processing from server docs (skill://pdf-processing/SKILL.md)?",
      );
      expect(flat).toContain(`SKILL.md (${bytes(files["SKILL.md"])} bytes)`);
      expect(flat).toContain(`references/FORMS.md (${bytes(files["references/FORMS.md"])} bytes)`);
      expect(flat).not.toContain("Allow MCP tool");
      term.keys("Enter");
      await term.waitFor("the model's answer", (s) => s.includes("Loaded the skill."), 60_000);
      const loaded = project.model.requests.at(-1);
      expect(toolResultTexts(loaded!).at(-1)).toContain("reply with the word PELICAN-7");
    } finally {
      term.kill();
    }
  });
});
