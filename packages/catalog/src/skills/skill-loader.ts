/**
 * Loading a skill (SEP-2640) from its server, the one way every host of ours
 * does it: the entry this connection listed, or else the entry fetched by URI
 * through `skills/get` (a skill known from an earlier session's listing, or
 * one never listed), then `SKILL.md` read and verified against it
 * (skill-verify.ts); a supporting file is read only
 * when asked for, by a path the entry lists, from the same server. Nothing is
 * read at list time. Approval and origin tagging are the caller's.
 */
import { skillRoot } from "./skill-entry.js";
import type { SkillEntry } from "./skill-entry-check.js";
import {
  listedFile,
  type SkillReadResult,
  SkillVerificationError,
  sameUri,
  type VerifiedSkillFile,
  verifySkillFile,
} from "./skill-verify.js";

/** What loading needs from one server's connection (declared here, by the consumer). */
export interface SkillSource {
  getSkill(uri: string): Promise<unknown>;
  readResource(uri: string): Promise<SkillReadResult>;
}

/** A loaded skill: the entry it was verified against and its `SKILL.md`. */
export interface LoadedSkill {
  entry: SkillEntry;
  manifest: VerifiedSkillFile & { body: string; frontmatter: Record<string, unknown> };
}

/**
 * The skill at `uri` with its `SKILL.md`, verified against `listed` (the
 * entry this same connection listed) or else against the entry `skills/get`
 * returns. Throws `SkillVerificationError` on any mismatch.
 */
export async function loadSkill(source: SkillSource, uri: string, listed?: SkillEntry): Promise<LoadedSkill> {
  // The entry's check loads zod: only here, for an entry fetched now, never when a host starts.
  const checked = listed
    ? { entry: listed }
    : (await import("./skill-entry-check.js")).checkSkillEntry(await source.getSkill(uri));
  if ("problems" in checked) {
    throw new SkillVerificationError(
      "unlisted",
      uri,
      `skills/get returned an invalid entry for ${uri}: ${checked.problems.join("; ")}`,
    );
  }
  const entry = checked.entry;
  if (!sameUri(entry.uri, uri)) {
    throw new SkillVerificationError(
      "unlisted",
      uri,
      `skills/get for ${uri} returned another skill, ${entry.uri}`,
    );
  }
  const manifest = await verifySkillFile(entry, entry.uri, await source.readResource(entry.uri));
  return { entry, manifest: manifest as LoadedSkill["manifest"] };
}

/**
 * One supporting file of a loaded skill: `ref` is relative to the skill's
 * folder (`references/FORMS.md`) or a URI inside it. A file the entry does not
 * list is refused before anything is sent.
 */
export async function readSkillFile(
  source: SkillSource,
  entry: SkillEntry,
  ref: string,
): Promise<VerifiedSkillFile> {
  const uri = resolveSkillRef(entry, ref);
  listedFile(entry, uri);
  return verifySkillFile(entry, uri, await source.readResource(uri));
}

/** `ref` as a URI inside the skill's folder; outside it is a verification failure. */
export function resolveSkillRef(entry: SkillEntry, ref: string): string {
  const root = skillRoot(entry.uri) as string;
  const withoutFragment = ref.split("#")[0] ?? "";
  let uri: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(withoutFragment)) uri = withoutFragment;
  else {
    const parts = withoutFragment.split("/").filter((part) => part !== "." && part !== "");
    if (parts.includes("..")) {
      throw new SkillVerificationError("unlisted", ref, `${ref} leaves the folder of the skill ${entry.uri}`);
    }
    uri = `${root}/${parts.join("/")}`;
  }
  if (!sameUri(uri, entry.uri) && !uri.startsWith(`${root}/`)) {
    throw new SkillVerificationError("unlisted", uri, `${uri} is not a file of the skill ${entry.uri}`);
  }
  return uri;
}
