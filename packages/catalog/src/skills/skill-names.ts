/**
 * The names the model and the user see for MCP skills. A skill is keyed on
 * `(server, uri)`; its name is `<server>-<name>`, so two servers' skills of
 * one name stay apart, and a local skill of that name is never shadowed (the
 * MCP skill gets `-mcp` added). Two skills of one name on one server are told
 * apart by a counter, in URI order, so the names stay stable between sessions.
 */

/** One MCP skill as named for the host. */
export interface NamedSkill {
  server: string;
  uri: string;
  /** The name the model and `/skill:` use: lowercase letters, digits and hyphens. */
  name: string;
  /** The skill's own frontmatter name. */
  skillName: string;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "server";

/**
 * Names for every listed skill. `taken` holds the names already in use by
 * local skills; the result never repeats one of them, nor itself.
 */
export function nameSkills(
  skills: readonly { server: string; uri: string; name: string }[],
  taken: ReadonlySet<string> = new Set(),
): NamedSkill[] {
  const used = new Set(taken);
  const ordered = [...skills].sort((a, b) => a.server.localeCompare(b.server) || a.uri.localeCompare(b.uri));
  return ordered.map((skill) => {
    const base = `${slug(skill.server)}-${slug(skill.name)}`;
    let name = used.has(base) && taken.has(base) ? `${base}-mcp` : base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return { server: skill.server, uri: skill.uri, name, skillName: skill.name };
  });
}
