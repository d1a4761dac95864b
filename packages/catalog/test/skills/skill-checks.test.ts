/**
 * The host's skill checks (SEP-2640) on entries the SDK's own server side
 * builds (`skillEntry`, real digests and sizes): listing rules and limits,
 * file verification by size, digest and frontmatter, refs bound to the
 * skill's folder, and names that never collide.
 */
import { createHash } from "node:crypto";
import { skillEntry } from "@modelcontextprotocol/server/ext/skills";
import { describe, expect, it } from "vitest";
import {
  nameSkills,
  readSkillFile,
  refusedSkillNote,
  resolveSkillRef,
  SKILL_LIMITS,
  type SkillEntry,
  SkillVerificationError,
  verifySkillFile,
} from "../../src/index.js";
import { checkSkillListing } from "../../src/schemas.js";

const SKILL_MD =
  '---\nname: pdf-processing\ndescription: Fill PDF forms\nmetadata:\n  version: "1.2"\n---\n# Body\n';
const FORMS = "# Forms\n";
const files = { "SKILL.md": SKILL_MD, "references/FORMS.md": FORMS };
const entry = async () => (await skillEntry("pdf-processing", files)) as SkillEntry;
const read = (uri: string, text: string) => ({ contents: [{ uri, text }] });
const MANIFEST = "skill://pdf-processing/SKILL.md";
const FORMS_URI = "skill://pdf-processing/references/FORMS.md";

async function failure(run: () => Promise<unknown>): Promise<SkillVerificationError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SkillVerificationError) return error;
    throw error;
  }
  throw new Error("expected a SkillVerificationError");
}

describe("skill listing", () => {
  it("keeps valid entries and refuses each bad one by itself, naming why", async () => {
    const good = await entry();
    const misnamed = { ...good, uri: "skill://other/SKILL.md", resources: [] };
    const { skills, refused } = checkSkillListing([good, misnamed, { uri: 3 }]);
    expect(skills.map((s) => s.uri)).toEqual([MANIFEST]);
    expect(refused.map((r) => r.index)).toEqual([1, 2]);
    expect(refused[0]?.reason).toMatch(/name "pdf-processing" must match the folder "other"/);
    expect(refused[0]?.reason).toMatch(/must include its own skill:\/\/other\/SKILL.md/);
    expect(refusedSkillNote("docs", refused[0]!)).toMatch(
      /^skill pdf-processing from server docs left out: name "pdf-processing" must match the folder "other"/,
    );
    expect(refusedSkillNote("docs", refused[1]!)).toMatch(
      /^skill #3 of the listing from server docs left out: /,
    );
  });

  it("refuses every copy of a repeated URI", async () => {
    const good = await entry();
    const { skills, refused } = checkSkillListing([good, good]);
    expect(skills).toEqual([]);
    expect(refused.map((r) => r.reason)).toEqual([
      "the same uri is listed more than once",
      "the same uri is listed more than once",
    ]);
  });

  it("refuses a skill over 512 files or 16 MiB", async () => {
    const good = await entry();
    const file = (i: number) => ({
      uri: `skill://pdf-processing/f${i}.md`,
      digest: `sha256:${"0".repeat(64)}`,
      size: 1,
    });
    const many = {
      ...good,
      resources: [
        ...(good.resources as []),
        ...Array.from({ length: SKILL_LIMITS.files }, (_, i) => file(i)),
      ],
    };
    const huge = {
      ...good,
      resources: [...(good.resources as []), { ...file(0), size: SKILL_LIMITS.bytes }],
    };
    const { refused } = checkSkillListing([many, huge]);
    expect(refused[0]?.reason).toMatch(/lists 514 files; the limit is 512/);
    expect(refused[1]?.reason).toMatch(/add up to \d+ bytes; the limit is 16777216/);
  });

  it("refuses a file outside the skill's folder", async () => {
    const good = await entry();
    const outside = {
      ...good,
      resources: [
        ...(good.resources as []),
        { uri: "skill://other/x.md", digest: `sha256:${"0".repeat(64)}`, size: 1 },
      ],
    };
    expect(checkSkillListing([outside]).refused[0]?.reason).toMatch(/outside the skill's folder/);
  });
});

describe("skill file verification", () => {
  it("accepts the files as listed and parses SKILL.md", async () => {
    const skill = await entry();
    const manifest = await verifySkillFile(skill, MANIFEST, read(MANIFEST, SKILL_MD));
    expect(manifest.body).toBe("# Body\n");
    expect(manifest.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Fill PDF forms",
      metadata: { version: "1.2" },
    });
    expect((await verifySkillFile(skill, FORMS_URI, read(FORMS_URI, FORMS))).verified).toBe(true);
  });

  it("refuses a file whose size differs from the entry's, before its digest", async () => {
    const skill = await entry();
    const error = await failure(() => verifySkillFile(skill, FORMS_URI, read(FORMS_URI, `${FORMS}more`)));
    expect(error.reason).toBe("size");
    expect(error.message).toMatch(/FORMS.md is 12 bytes; the skill's entry lists 8/);
  });

  it("refuses a file of the right size with another digest", async () => {
    const skill = await entry();
    const error = await failure(() => verifySkillFile(skill, FORMS_URI, read(FORMS_URI, "# Evil \n")));
    expect(error.reason).toBe("digest");
    expect(error.message).toMatch(/has digest sha256:[0-9a-f]{64}; the skill's entry lists sha256:/);
  });

  it("compares SKILL.md's frontmatter with the entry's field by field", async () => {
    const tampered = SKILL_MD.replace("Fill PDF forms", "Exfiltrate keys");
    // Digest and size match the tampered file: only the frontmatter comparison can catch it.
    const skill = {
      ...(await skillEntry("pdf-processing", { ...files, "SKILL.md": tampered })),
      frontmatter: (await entry()).frontmatter,
    } as SkillEntry;
    const error = await failure(() => verifySkillFile(skill, MANIFEST, read(MANIFEST, tampered)));
    expect(error.reason).toBe("frontmatter");
    expect(error.message).toMatch(
      /description: the entry has "Fill PDF forms", SKILL.md has "Exfiltrate keys"/,
    );
  });

  it("tells a number from a string in the frontmatter", async () => {
    const skill = await entry();
    const retyped = SKILL_MD.replace(
      "description: Fill PDF forms",
      "description: Fill PDF forms\nlicense: 2",
    );
    const bytes = Buffer.from(retyped);
    const listed = {
      ...skill,
      frontmatter: { ...skill.frontmatter, license: "2" },
      resources: [
        {
          uri: MANIFEST,
          size: bytes.byteLength,
          digest: `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
        },
      ],
    } as SkillEntry;
    const error = await failure(() => verifySkillFile(listed, MANIFEST, read(MANIFEST, retyped)));
    expect(error.message).toMatch(/license: the entry has "2", SKILL.md has 2/);
  });

  it("refuses a file the entry does not list, sending nothing", async () => {
    const skill = await entry();
    const sent: string[] = [];
    const source = {
      getSkill: async () => skill,
      readResource: async (uri: string) => {
        sent.push(uri);
        return read(uri, "x");
      },
    };
    await expect(readSkillFile(source, skill, "references/SECRET.md")).rejects.toMatchObject({
      reason: "unlisted",
    });
    await expect(readSkillFile(source, skill, "../other/SKILL.md")).rejects.toThrow(/leaves the folder/);
    expect(sent).toEqual([]);
    expect(resolveSkillRef(skill, "./references/FORMS.md#top")).toBe(FORMS_URI);
  });
});

describe("skill names", () => {
  it("keeps two servers' skills of one name apart and never shadows a local skill", () => {
    const skill = (uri: string) => ({
      uri,
      frontmatter: { name: "pdf", description: "d" },
      resources: "dynamic" as const,
    });
    const named = nameSkills(
      [
        { server: "Files", skills: [skill("skill://pdf/SKILL.md")] },
        { server: "docs", skills: [skill("skill://b/pdf/SKILL.md"), skill("skill://a/pdf/SKILL.md")] },
      ],
      ["files-pdf"],
    );
    expect(named.map((n) => [n.server, n.uri, n.name])).toEqual([
      ["docs", "skill://a/pdf/SKILL.md", "docs-pdf"],
      ["docs", "skill://b/pdf/SKILL.md", "docs-pdf-2"],
      ["Files", "skill://pdf/SKILL.md", "files-pdf-mcp"],
    ]);
  });
});
