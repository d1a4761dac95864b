/**
 * A skills listing entry that fails the checks (SEP-2640) stays out of the
 * skills offered, and is not silent: the server's status says which skill
 * was left out and why, live and — from the metadata cache — in the next
 * session before the server starts. The skills fixture server (the SDK's
 * `SkillsExtension` over stdio) lists the entries as given.
 */
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import {
  createTempDir,
  skillsFixtureServerPath,
  type TempDir,
  writeSkillsFixture,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AdapterRuntime, headlessHost } from "../../src/index.js";
import { formatStatus } from "../../src/startup.js";
import { connectWith, stdioDefinition } from "../definitions.js";

let dir: TempDir;
const runtimes: AdapterRuntime[] = [];
beforeEach(async () => {
  dir = await createTempDir("pi-mcp-refused-skills-");
});
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.shutdown()));
  await dir.remove();
});

/** A listed skill whose name is not its folder's, as a careless server lists it. */
const MISNAMED = {
  uri: "skill://pdf-tools/SKILL.md",
  frontmatter: { name: "pdf-processing", description: "Another PDF skill." },
  resources: [{ uri: "skill://pdf-tools/SKILL.md", digest: `sha256:${"0".repeat(64)}`, size: 10 }],
};

async function runtimeWith(starts: string[]): Promise<AdapterRuntime> {
  const skills = await writeSkillsFixture(dir.join("skills"));
  const connect = connectWith();
  const runtime = new AdapterRuntime({
    servers: [
      stdioDefinition("docs", {
        command: process.execPath,
        args: [skillsFixtureServerPath, skills],
        env: { SKILLS_FIXTURE_EXTRA: JSON.stringify([MISNAMED, { uri: 7 }]) },
      }),
    ],
    host: headlessHost(),
    catalog: { cache: new MetadataCache({ file: dir.join("mcp-cache.json") }) },
    connect: (definition, signal) => {
      starts.push(definition.name);
      return connect(definition, signal);
    },
  });
  runtimes.push(runtime);
  return runtime;
}

const statusOf = (runtime: AdapterRuntime) => formatStatus(runtime.listings.summaries(), []);

describe("a skills listing entry that fails the checks", () => {
  it("is left out of the skills offered and shown in status with its reason, live and from the cache", async () => {
    const first = await runtimeWith([]);
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

    const starts: string[] = [];
    const next = await runtimeWith(starts);
    await next.listings.known("docs");
    expect(statusOf(next)).toContain("skill pdf-processing from server docs left out: name");
    expect(starts).toEqual([]);
  });
});
