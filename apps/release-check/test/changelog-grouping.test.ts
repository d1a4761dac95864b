/**
 * The changelog generator `.changeset/config.json` names and the regrouping `npm run release:version`
 * runs after `changeset version`: lines tagged by subject end up under one heading per subject, new
 * things before fixes, the intro changeset as the opening paragraph.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../src/published-packages.js";

const require = createRequire(import.meta.url);
const generator = require(path.join(repoRoot, "scripts/release/changelog-by-subject.cjs")) as {
  getReleaseLine(changeset: { id: string; summary: string }, type: string): Promise<string>;
  getDependencyReleaseLine(
    changesets: unknown[],
    deps: { name: string; newVersion: string }[],
  ): Promise<string>;
};
const { groupChangelog } = (await import(path.join(repoRoot, "scripts/release/group-changelogs.mjs"))) as {
  groupChangelog(text: string): string;
};

describe("changelog by subject", () => {
  it("regroups a section changeset version wrote", async () => {
    const line = (id: string, summary: string, type: string) =>
      generator.getReleaseLine({ id, summary }, type);
    const major = [
      await line("first-stable-release", "<!-- subject: intro -->First stable release.", "major"),
    ];
    const minor = [
      await line("search-verb-phrases", "Search reads verbs of several words.", "minor"),
      await line("oauth-dpop", "DPoP-bound tokens.\nWith `dpop: true`.", "minor"),
    ];
    const patch = [
      await line("search-late-servers", "Late servers are searched too.", "patch"),
      await generator.getDependencyReleaseLine([], [{ name: "@pi-mcp-adapter/core", newVersion: "1.0.0" }]),
    ];
    const written = [
      "# @pi-mcp-adapter/example",
      "",
      "## 1.0.0",
      "",
      "### Major Changes",
      "",
      ...major,
      "",
      "### Minor Changes",
      "",
      ...minor,
      "",
      "### Patch Changes",
      "",
      ...patch,
      "",
      "## 0.1.0",
      "",
      "- Older entry.",
      "",
    ].join("\n");
    expect(groupChangelog(written)).toBe(
      [
        "# @pi-mcp-adapter/example",
        "",
        "## 1.0.0",
        "",
        "First stable release.",
        "",
        "### OAuth and credentials",
        "",
        "- DPoP-bound tokens.\n  With `dpop: true`.",
        "",
        "### Tool search",
        "",
        "- Search reads verbs of several words.\n- Late servers are searched too.",
        "",
        "### Dependencies",
        "",
        "- Uses `@pi-mcp-adapter/core` 1.0.0.",
        "",
        "## 0.1.0",
        "",
        "- Older entry.",
        "",
      ].join("\n"),
    );
  });

  it("leaves a section without tags as it is", () => {
    const text = "# x\n\n## 1.0.1\n\n### Tool search\n\n- Already grouped.\n";
    expect(groupChangelog(text)).toBe(text);
  });
});
