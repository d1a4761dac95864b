/**
 * The skills extension's wire (SEP-2640) against a real server on the SDK's
 * `SkillsExtension` (test-kit's skills fixture), on both protocol revisions:
 * the capability is read, `skills/list` walks its pages, `skills/get` returns
 * one entry, and a server without the extension is never asked.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  createTempDir,
  minimalServerPath,
  skillsFixtureServerPath,
  type TempDir,
  writeSkillsFixture,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection } from "../../src/index.js";
import { definition } from "../helpers.js";

let dir: TempDir;
let open: ServerConnection | undefined;
beforeEach(async () => {
  dir = await createTempDir("pi-mcp-skills-wire-");
});
afterEach(async () => {
  await open?.close();
  open = undefined;
  await dir.remove();
});

describe.each(["legacy", "auto"] as const)("skills wire, protocol %s", (protocol) => {
  it("lists every skill and gets one by URI, reading no file", async () => {
    const skills = await writeSkillsFixture(path.join(dir.path, "skills"));
    const log = path.join(dir.path, "requests.log");
    open = await connectServer(
      definition({
        name: "skills",
        transport: "stdio",
        command: process.execPath,
        args: [skillsFixtureServerPath, skills],
        env: { SKILLS_FIXTURE_LOG: log },
        protocol,
      }),
    );
    expect(open.protocolVersion).toBe(protocol === "auto" ? "2026-07-28" : "2025-11-25");
    expect(open.features.skills).toBe(true);
    const listed = (await open.listSkills()) as { uri: string; resources: { uri: string }[] }[];
    expect(listed.map((s) => s.uri).sort()).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://release-notes/SKILL.md",
    ]);
    const got = (await open.getSkill("skill://pdf-processing/SKILL.md")) as {
      uri: string;
      resources: unknown[];
    };
    expect(got.uri).toBe("skill://pdf-processing/SKILL.md");
    expect(got.resources).toHaveLength(2);
    const requests = (await readFile(log, "utf8")).trim().split("\n");
    expect(requests).toEqual(["skills/list", "skills/get skill://pdf-processing/SKILL.md"]);
  });
});

it("never sends skills/list to a server without the extension", async () => {
  open = await connectServer(
    definition({ name: "plain", transport: "stdio", command: process.execPath, args: [minimalServerPath] }),
  );
  expect(open.features.skills).toBe(false);
  expect(await open.listSkills()).toBeUndefined();
});
