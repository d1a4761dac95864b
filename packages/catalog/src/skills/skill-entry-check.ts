/**
 * A skill entry (SEP-2640) as received from a server: its shape checked with
 * zod, then the extension's rules (`skill-entry.ts`). Loaded when a listing
 * or a skill arrives, never on a host's start path (cached entries are
 * checked by hand in `cache-file-check.ts`).
 */
import { z } from "zod";
import {
  type RefusedSkillEntry,
  type SkillEntry,
  type SkillFileEntry,
  skillEntryProblems,
} from "./skill-entry.js";

export type { SkillEntry, SkillFileEntry } from "./skill-entry.js";

export const SkillFileEntrySchema: z.ZodType<SkillFileEntry> = z.object({
  uri: z.string().min(1),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: and 64 lowercase hex digits"),
  size: z.number().int().nonnegative(),
});

export const SkillEntrySchema: z.ZodType<SkillEntry> = z.object({
  uri: z.string().min(1),
  frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
  resources: z.union([z.array(SkillFileEntrySchema), z.literal("dynamic")]),
});

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

/** How many characters of a refused entry's name, URI and reason are kept (they are cached and shown). */
const REFUSED_CHARS = 300;

const capped = (text: string) =>
  text.length > REFUSED_CHARS ? `${text.slice(0, REFUSED_CHARS - 1)}…` : text;
