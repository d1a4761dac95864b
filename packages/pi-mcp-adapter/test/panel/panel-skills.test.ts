/**
 * The panel shows each server's MCP skills (SEP-2640): a count on the
 * server's row and, expanded, one row per skill with its `/skill:` command,
 * from a real runtime over the skills fixture server (the SDK's
 * `SkillsExtension`), read from the listing without connecting again.
 */
import { createRuntime } from "@pi-mcp-adapter/runtime";
import {
  createTempDir,
  skillsFixtureServerPath,
  type TempDir,
  writeSkillsFixture,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createPanelState, toggleExpanded } from "../../src/pi/panel/panel-model.js";
import { panelServers, skillsByServer } from "../../src/pi/panel/panel-servers.js";
import { renderPanel } from "../../src/pi/panel/panel-view.js";

/** A runtime (no caches on disk) over the skills fixture server as `docs`, listing `extra` entries besides its skills. */
async function docsRuntime(dir: TempDir, extra: unknown[] = []) {
  const skills = await writeSkillsFixture(dir.join("skills"));
  const env = extra.length ? { SKILLS_FIXTURE_EXTRA: JSON.stringify(extra) } : {};
  return createRuntime({
    cwd: dir.path,
    config: {
      mcpServers: { docs: { command: process.execPath, args: [skillsFixtureServerPath, skills], env } },
    },
    metadataCacheFile: false,
    npxCacheFile: false,
  });
}

describe("panel: MCP skills per server", () => {
  it("counts a server's skills and lists them when it is expanded", async () => {
    await using dir = await createTempDir();
    const runtime = await docsRuntime(dir);
    try {
      await runtime.catalog.view("docs");
      const servers = panelServers(runtime, [], undefined, await skillsByServer(runtime));
      expect(servers[0]?.skills).toEqual(["docs-pdf-processing", "docs-release-notes"]);
      const collapsed = renderPanel(createPanelState(servers, "user"), 200).join("\n");
      expect(collapsed).toMatch(/docs {2}connected {2}1 tool {2}2 skills {2}proxy/);
      const expanded = renderPanel(toggleExpanded(createPanelState(servers, "user")), 200).join("\n");
      expect(expanded).toContain("skill docs-pdf-processing  (/skill:docs-pdf-processing)");
      expect(expanded).toContain("skill docs-release-notes  (/skill:docs-release-notes)");
    } finally {
      await runtime.shutdown();
    }
  });

  it("shows a listed skill that failed the checks as left out, with why", async () => {
    await using dir = await createTempDir();
    const unnamed = {
      uri: "skill://notes/SKILL.md",
      frontmatter: { name: "notes", description: "" },
      resources: [],
    };
    const runtime = await docsRuntime(dir, [unnamed]);
    try {
      await runtime.catalog.view("docs");
      const servers = panelServers(runtime, [], undefined, await skillsByServer(runtime));
      expect(servers[0]?.skills).toEqual(["docs-pdf-processing", "docs-release-notes"]);
      const expanded = renderPanel(toggleExpanded(createPanelState(servers, "user")), 200).join("\n");
      expect(expanded).toContain(
        "skill notes from server docs left out: description must be 1-1024 characters; its files must include its own skill://notes/SKILL.md",
      );
    } finally {
      await runtime.shutdown();
    }
  });
});
