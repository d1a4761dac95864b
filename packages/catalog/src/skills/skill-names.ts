/**
 * The names the model and the user see for MCP skills. A skill is keyed on
 * `(server, uri)`; its name is `<server>-<name>`, so two servers' skills of
 * one name stay apart, and a local skill of that name is never shadowed (the
 * MCP skill gets `-mcp` added). Two skills of one name on one server are told
 * apart by a counter, in URI order, so the names stay stable between sessions.
 */
import type { SkillEntry } from "./skill-entry-check.js";

/** One MCP skill as named for the host. */
export interface NamedSkill {
  server: string;
  uri: string;
  /** The name the model and `/skill:` use: lowercase letters, digits and hyphens. */
  name: string;
  description: string;
  entry: SkillEntry;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "server";

/**
 * Names for every listed skill of every server. `taken` holds the names of
 * the host's own skills; the result never repeats one of them, nor itself.
 */
export function nameSkills(
  listed: readonly { server: string; skills: readonly SkillEntry[] }[],
  taken: Iterable<string> = [],
): NamedSkill[] {
  const local = new Set(taken);
  const used = new Set(local);
  const ordered = listed
    .flatMap(({ server, skills }) => skills.map((entry) => ({ server, entry })))
    .sort((a, b) => a.server.localeCompare(b.server) || a.entry.uri.localeCompare(b.entry.uri));
  return ordered.map(({ server, entry }) => {
    const base = `${slug(server)}-${slug(entry.frontmatter.name)}`;
    let name = local.has(base) ? `${base}-mcp` : base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return { server, uri: entry.uri, name, description: entry.frontmatter.description, entry };
  });
}
