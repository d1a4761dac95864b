/**
 * Verifies one skill file (SEP-2640) against the entry the server published:
 * the file must be listed, its bytes must have the listed size and sha256
 * digest, and a skill's own `SKILL.md` must carry frontmatter equal, field by
 * field, to the entry's. Any failure is a `SkillVerificationError`: the file
 * (for `SKILL.md`, the whole skill) must not be used.
 */
import { createHash } from "node:crypto";
import { McpAdapterError } from "@pi-mcp-adapter/core";
import type { SkillEntry, SkillFileEntry } from "./skill-entry-check.js";

export type SkillVerificationReason = "unlisted" | "size" | "digest" | "frontmatter" | "unreadable";

export class SkillVerificationError extends McpAdapterError {
  declare readonly code: "skill_verification_failed";

  constructor(
    readonly reason: SkillVerificationReason,
    readonly uri: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super("skill_verification_failed", message, options);
    this.name = "SkillVerificationError";
  }
}

/** A `resources/read` result as it came (text or base64 blob per content). */
export interface SkillReadResult {
  contents: readonly { uri: string; text?: string; blob?: string; mimeType?: string }[];
}

/** A verified file: exactly the bytes the entry's digest covers. */
export interface VerifiedSkillFile {
  uri: string;
  mimeType?: string;
  bytes: Uint8Array;
  text?: string;
  /** `SKILL.md` only: its frontmatter (equal to the entry's) and the markdown after it. */
  frontmatter?: Record<string, unknown>;
  body?: string;
  /** False only for a `"dynamic"` skill's supporting file, which has no digest to check. */
  verified: boolean;
}

/** The listed file `uri` of `entry` (unlisted: a verification failure; a dynamic skill lists none). */
export function listedFile(entry: SkillEntry, uri: string): SkillFileEntry | undefined {
  if (entry.resources === "dynamic") return undefined;
  const listed = entry.resources.find((file) => sameUri(file.uri, uri));
  if (!listed) {
    throw new SkillVerificationError("unlisted", uri, `${uri} is not a file of the skill ${entry.uri}`);
  }
  return listed;
}

/** Verifies `result`, read for the file `uri` of `entry`. Rejects with `SkillVerificationError`. */
export async function verifySkillFile(
  entry: SkillEntry,
  uri: string,
  result: SkillReadResult,
): Promise<VerifiedSkillFile> {
  const listed = listedFile(entry, uri);
  const content = result.contents.find((c) => sameUri(c.uri, uri)) ?? result.contents[0];
  if (!content || (content.text === undefined && content.blob === undefined)) {
    throw new SkillVerificationError("unreadable", uri, `the server returned no content for ${uri}`);
  }
  const bytes =
    content.text !== undefined
      ? new TextEncoder().encode(content.text)
      : Buffer.from(content.blob ?? "", "base64");
  if (listed) {
    if (bytes.byteLength !== listed.size) {
      throw new SkillVerificationError(
        "size",
        uri,
        `${uri} is ${bytes.byteLength} bytes; the skill's entry lists ${listed.size}`,
      );
    }
    const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    if (digest !== listed.digest) {
      throw new SkillVerificationError(
        "digest",
        uri,
        `${uri} has digest ${digest}; the skill's entry lists ${listed.digest}`,
      );
    }
  }
  const file: VerifiedSkillFile = {
    uri,
    ...(content.mimeType ? { mimeType: content.mimeType } : {}),
    bytes,
    ...(content.text !== undefined ? { text: content.text } : {}),
    verified: listed !== undefined,
  };
  if (!sameUri(uri, entry.uri)) return file;
  const markdown = content.text ?? new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const { frontmatter, body } = await splitFrontmatter(uri, markdown);
  const differences = frontmatterDifferences(entry.frontmatter, frontmatter);
  if (differences.length > 0) {
    throw new SkillVerificationError(
      "frontmatter",
      uri,
      `the frontmatter of ${uri} differs from the skill's entry: ${differences.join("; ")}`,
    );
  }
  return { ...file, text: markdown, frontmatter, body };
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

async function splitFrontmatter(
  uri: string,
  markdown: string,
): Promise<{ frontmatter: Record<string, unknown>; body: string }> {
  const text = markdown.startsWith("\uFEFF") ? markdown.slice(1) : markdown;
  const match = FRONTMATTER.exec(text);
  if (!match) {
    throw new SkillVerificationError(
      "frontmatter",
      uri,
      `${uri} does not begin with --- delimited YAML frontmatter`,
    );
  }
  // The YAML parser loads with the first skill, not with the catalog (which every start-up reads).
  const { parse: parseYaml } = await import("yaml");
  let parsed: unknown;
  try {
    parsed = parseYaml(match[1] ?? "", { schema: "core" });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new SkillVerificationError(
      "frontmatter",
      uri,
      `the frontmatter of ${uri} is not valid YAML: ${why}`,
      {
        cause: error,
      },
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new SkillVerificationError("frontmatter", uri, `the frontmatter of ${uri} is not a mapping`);
  }
  return { frontmatter: parsed as Record<string, unknown>, body: text.slice(match[0].length) };
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));

/** Every field both ways: objects in any key order, arrays in order, no type coercion. */
export function frontmatterDifferences(entry: unknown, parsed: unknown, path = ""): string[] {
  const label = path || "(frontmatter)";
  if (Array.isArray(entry) && Array.isArray(parsed)) {
    if (entry.length !== parsed.length)
      return [`${label}: the entry has ${entry.length} items, SKILL.md has ${parsed.length}`];
    return entry.flatMap((item, i) => frontmatterDifferences(item, parsed[i], `${path}[${i}]`));
  }
  if (isMap(entry) && isMap(parsed)) {
    const keys = [...new Set([...Object.keys(entry), ...Object.keys(parsed)])].sort();
    return keys.flatMap((key) =>
      frontmatterDifferences(entry[key], parsed[key], path ? `${path}.${key}` : key),
    );
  }
  return entry === parsed ? [] : [`${label}: the entry has ${show(entry)}, SKILL.md has ${show(parsed)}`];
}

/** Two spellings of one file URI (percent-encoding aside). */
export function sameUri(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return decodeURI(a) === decodeURI(b);
  } catch {
    return false;
  }
}
