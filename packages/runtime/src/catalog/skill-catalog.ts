/**
 * MCP skills (SEP-2640) as hosts offer them: every enabled server's listed
 * skills, from this session's listing or the metadata cache (so a lazy
 * server not started yet still offers its skills), each keyed on
 * `(server, uri)` and given a name that never collides (catalog's
 * `nameSkills`). Reading them never connects a server and never reads a
 * skill file. Pi-free.
 */
import { nameSkills, type SkillEntry } from "@pi-mcp-adapter/catalog";

/** One skill of one server, as the model and `/skill:` know it. */
export interface SkillInfo {
  server: string;
  uri: string;
  /** The name the model and `/skill:` use: `<server>-<skill>`, never a local skill's name. */
  name: string;
  description: string;
  entry: SkillEntry;
}

/** Named skills of `listed` servers; `taken`: names in use by the host's own skills. */
export function skillInfos(
  listed: readonly { server: string; skills: readonly SkillEntry[] }[],
  taken: Iterable<string> = [],
): SkillInfo[] {
  const entries = new Map<string, SkillEntry>();
  const flat = listed.flatMap(({ server, skills }) =>
    skills.map((entry) => {
      entries.set(`${server}\n${entry.uri}`, entry);
      return { server, uri: entry.uri, name: entry.frontmatter.name };
    }),
  );
  return nameSkills(flat, new Set(taken)).map((named) => {
    const entry = entries.get(`${named.server}\n${named.uri}`) as SkillEntry;
    return {
      server: named.server,
      uri: named.uri,
      name: named.name,
      description: entry.frontmatter.description,
      entry,
    };
  });
}
