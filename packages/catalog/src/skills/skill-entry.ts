/**
 * A skills listing (SEP-2640) as the host takes it: each `skills/list` or
 * `skills/get` entry checked on its own against the extension's rules, so one
 * bad entry is refused by name while the others stay usable. A skill is known
 * by `(server, uri)`; its name is only what the model sees (skill-names.ts).
 * The extension's rules are here (no zod); the entry's shape is checked in
 * `skill-entry-check.ts`, loaded when a listing arrives from a server.
 */
import { createHash } from "node:crypto";

/** A file a skill entry names, with its digest and size. */
export interface SkillFileEntry {
  uri: string;
  digest: string;
  size: number;
}

/** A skill entry (SEP-2640) whose shape was checked (`skill-entry-check.ts` holds the schema). */
export interface SkillEntry {
  uri: string;
  frontmatter: { name: string; description: string; [key: string]: unknown };
  resources: SkillFileEntry[] | "dynamic";
}

/** The extension's publication limits per skill, which the host enforces too. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });

/** A listing entry the host refused, and why (shown to the user; never offered to the model). */
export interface RefusedSkillEntry {
  index: number;
  uri?: string;
  /** The name its frontmatter gave, when it gave one. */
  name?: string;
  reason: string;
}

/** A refused entry for the user: `skill pdf from server docs left out: <reason>`. */
export function refusedSkillNote(server: string, refused: RefusedSkillEntry): string {
  const what = refused.name ?? refused.uri ?? `#${refused.index + 1} of the listing`;
  return `skill ${JSON.stringify(what).slice(1, -1)} from server ${server} left out: ${refused.reason}`;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MANIFEST = "/SKILL.md";

/** The skill's directory URI (without the trailing `/SKILL.md`), or undefined when `uri` names no SKILL.md in a folder. */
export function skillRoot(uri: string): string | undefined {
  if (!uri.endsWith(MANIFEST) || !/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(uri)) return undefined;
  return uri.slice(0, -MANIFEST.length);
}

/** The problems of one checked entry (empty: valid). */
export function skillEntryProblems(entry: SkillEntry): string[] {
  const problems: string[] = [];
  const root = skillRoot(entry.uri);
  if (root === undefined) return [`uri "${entry.uri}" must end in /SKILL.md inside a named folder`];
  const { name, description } = entry.frontmatter;
  const folder = decodeURIComponent(root.slice(root.lastIndexOf("/") + 1).replace(/^.*:\/\//, ""));
  if (name.length > 64 || !NAME.test(name)) {
    problems.push(`name "${name}" must be 1-64 lowercase letters, digits and single hyphens`);
  } else if (folder !== name) {
    problems.push(`name "${name}" must match the folder "${folder}" of ${entry.uri}`);
  }
  if (description.length === 0 || [...description].length > 1024) {
    problems.push("description must be 1-1024 characters");
  }
  if (entry.resources === "dynamic") return problems;
  const seen = new Set<string>();
  for (const file of entry.resources) {
    if (seen.has(file.uri)) problems.push(`file ${file.uri} is listed twice`);
    seen.add(file.uri);
    if (file.uri !== entry.uri && !file.uri.startsWith(`${root}/`)) {
      problems.push(`file ${file.uri} is outside the skill's folder ${root}/`);
    }
    if (/[?#]/.test(file.uri)) problems.push(`file ${file.uri} must not have a query or fragment`);
  }
  if (!seen.has(entry.uri)) problems.push(`its files must include its own ${entry.uri}`);
  if (entry.resources.length > SKILL_LIMITS.files) {
    problems.push(`it lists ${entry.resources.length} files; the limit is ${SKILL_LIMITS.files}`);
  }
  const bytes = entry.resources.reduce((sum, file) => sum + file.size, 0);
  if (bytes > SKILL_LIMITS.bytes) {
    problems.push(`its files add up to ${bytes} bytes; the limit is ${SKILL_LIMITS.bytes} (16 MiB)`);
  }
  return problems;
}

/**
 * What an approval of the skill is bound to: the set of its files' `{uri,
 * digest}` (a `"dynamic"` skill: its URI alone). A changed file is another skill.
 */
export function skillFilesFingerprint(entry: SkillEntry): string {
  const lines =
    entry.resources === "dynamic"
      ? [`${entry.uri} dynamic`]
      : entry.resources.map((file) => `${file.uri} ${file.digest}`).sort();
  return `sha256:${createHash("sha256").update(lines.join("\n")).digest("hex")}`;
}
