/**
 * A skills listing (SEP-2640) as the host takes it: each `skills/list` or
 * `skills/get` entry checked on its own against the extension's rules, so one
 * bad entry is refused by name while the others stay usable. A skill is known
 * by `(server, uri)`; its name is only what the model sees (skill-names.ts).
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/** The extension's publication limits per skill, which the host enforces too. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });

export const SkillFileEntrySchema = z.object({
  uri: z.string().min(1),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: and 64 lowercase hex digits"),
  size: z.number().int().nonnegative(),
});
export type SkillFileEntry = z.infer<typeof SkillFileEntrySchema>;

export const SkillEntrySchema = z.object({
  uri: z.string().min(1),
  frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
  resources: z.union([z.array(SkillFileEntrySchema), z.literal("dynamic")]),
});
export type SkillEntry = z.infer<typeof SkillEntrySchema>;

/** A listing entry the host refused, and why (shown to the user; never offered to the model). */
export interface RefusedSkillEntry {
  index: number;
  uri?: string;
  /** The name its frontmatter gave, when it gave one. */
  name?: string;
  reason: string;
}

/** How many characters of a refused entry's name, URI and reason are kept (they are cached and shown). */
const REFUSED_CHARS = 300;

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

/** Checks one entry as received: the entry, or why it is refused. */
export function checkSkillEntry(value: unknown): { entry: SkillEntry } | { problems: string[] } {
  const parsed = SkillEntrySchema.safeParse(value);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((i) => `${i.path.join(".") || "(entry)"}: ${i.message}`) };
  }
  const problems = skillEntryProblems(parsed.data);
  return problems.length === 0 ? { entry: parsed.data } : { problems };
}

/**
 * A whole listing: the valid entries and the refused ones. Every copy of a
 * repeated URI is refused (which of them is the skill cannot be told).
 */
export function checkSkillListing(values: readonly unknown[]): {
  skills: SkillEntry[];
  refused: RefusedSkillEntry[];
} {
  const uriOf = (value: unknown) => {
    const uri = (value as { uri?: unknown } | null)?.uri;
    return typeof uri === "string" ? uri : undefined;
  };
  const nameOf = (value: unknown) => {
    const name = (value as { frontmatter?: { name?: unknown } } | null)?.frontmatter?.name;
    return typeof name === "string" && name !== "" ? { name: capped(name) } : {};
  };
  const counts = new Map<string, number>();
  for (const value of values) {
    const uri = uriOf(value);
    if (uri !== undefined) counts.set(uri, (counts.get(uri) ?? 0) + 1);
  }
  const skills: SkillEntry[] = [];
  const refused: RefusedSkillEntry[] = [];
  values.forEach((value, index) => {
    const uri = uriOf(value);
    const checked = checkSkillEntry(value);
    const problems = "problems" in checked ? checked.problems : [];
    if (uri !== undefined && (counts.get(uri) ?? 0) > 1)
      problems.push("the same uri is listed more than once");
    if ("entry" in checked && problems.length === 0) skills.push(checked.entry);
    else
      refused.push({
        index,
        ...(uri !== undefined ? { uri: capped(uri) } : {}),
        ...nameOf(value),
        reason: capped(problems.join("; ")),
      });
  });
  return { skills, refused };
}

const capped = (text: string) =>
  text.length > REFUSED_CHARS ? `${text.slice(0, REFUSED_CHARS - 1)}…` : text;

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
