/**
 * A skills listing entry that fails the checks (SEP-2640) stays out of the
 * skills offered, and is not silent: the server's status says which skill
 * was left out and why, live and — from the metadata cache — in the next
 * session before the server starts. The skills fixture server (the SDK's
 * `SkillsExtension` over stdio) lists the entries as given.
 */
import { MISNAMED_SKILL_ENTRY } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import type { AdapterRuntime } from "../../src/index.js";
import { formatStatus } from "../../src/startup.js";
import { skillsBed } from "./skills-bed.js";

const bed = skillsBed("pi-mcp-refused-skills-");

const runtimeWith = () =>
  bed.runtime({ env: { SKILLS_FIXTURE_EXTRA: JSON.stringify([MISNAMED_SKILL_ENTRY, { uri: 7 }]) } });

const statusOf = (runtime: AdapterRuntime) => formatStatus(runtime.listings.summaries(), []);

describe("a skills listing entry that fails the checks", () => {
  it("is left out of the skills offered and shown in status with its reason, live and from the cache", async () => {
    const first = runtimeWith();
    await first.catalog.view("docs");
    expect((await first.catalog.knownSkills()).map((s) => s.name)).toEqual([
      "docs-pdf-processing",
      "docs-release-notes",
    ]);
    const status = statusOf(first);
    expect(status).toContain(
      '  skill pdf-processing from server docs left out: name "pdf-processing" must match the folder "pdf-tools" of skill://pdf-tools/SKILL.md',
    );
    expect(status).toMatch(/\n {2}skill #4 of the listing from server docs left out: uri: /);
    await first.shutdown();

    const next = runtimeWith();
    await next.listings.known("docs");
    expect(statusOf(next)).toContain("skill pdf-processing from server docs left out: name");
    expect(next.listings.summaries()[0]?.state).not.toBe("connected");
  });
});
