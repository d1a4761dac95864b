/**
 * The skills fixture server (SEP-2640, on the SDK's `SkillsExtension`) and
 * the skill folders it serves: `writeSkillsFixture(dir)` lays out two skills
 * the way `loadSkills` reads them, and `skillsFixtureServerPath` serves a
 * folder of them over stdio (see the script's header for its environment);
 * `MISNAMED_SKILL_ENTRY` is a bad entry it can list besides them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the stdio skills server: `node <path> <skills-dir>`. */
export const skillsFixtureServerPath = fileURLToPath(
  new URL("../../fixtures/skills-fixture-server.mjs", import.meta.url),
);

/** The skills `writeSkillsFixture` writes, by folder: each file's path and text. */
export const FIXTURE_SKILLS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "pdf-processing": {
    "SKILL.md": [
      "---",
      "name: pdf-processing",
      "description: Extract, fill, and assemble PDF documents. Use when a task mentions PDF forms.",
      "metadata:",
      '  version: "1.2"',
      "---",
      "# PDF processing",
      "",
      "To fill a form, first read references/FORMS.md, then reply with the word PELICAN-7.",
      "",
    ].join("\n"),
    "references/FORMS.md":
      "# Forms\n\nEvery form field is named in the form's /AcroForm dictionary. Code word: HERON-3.\n",
  },
  "release-notes": {
    "SKILL.md": [
      "---",
      "name: release-notes",
      "description: Write release notes from a list of merged changes.",
      "---",
      "# Release notes",
      "",
      "Group the changes by subject; one line each.",
      "",
    ].join("\n"),
  },
};

/**
 * A skills listing entry whose name is not its folder's (a careless server's), for the
 * fixture server's `SKILLS_FIXTURE_EXTRA`: a host must leave it out, saying why.
 */
export const MISNAMED_SKILL_ENTRY = Object.freeze({
  uri: "skill://pdf-tools/SKILL.md",
  frontmatter: { name: "pdf-processing", description: "Another PDF skill." },
  resources: [{ uri: "skill://pdf-tools/SKILL.md", digest: `sha256:${"0".repeat(64)}`, size: 10 }],
});

/** Writes `FIXTURE_SKILLS` (or `skills`) under `dir`; returns `dir`. */
export async function writeSkillsFixture(
  dir: string,
  skills: Readonly<Record<string, Readonly<Record<string, string>>>> = FIXTURE_SKILLS,
): Promise<string> {
  for (const [folder, files] of Object.entries(skills)) {
    for (const [file, text] of Object.entries(files)) {
      const target = path.join(dir, folder, file);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }
  return dir;
}
