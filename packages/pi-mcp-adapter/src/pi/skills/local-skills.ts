/**
 * The names of Pi's own skills (the user's and the project's, from every
 * location Pi scans, and any another extension adds), read from Pi through
 * `pi.getCommands()` — each skill is a `skill:<name>` command there, on both
 * Pi lines — leaving out the adapter's own stubs. An MCP skill is named
 * around them (catalog's `nameSkills`): Pi keeps the first skill of a name,
 * so an MCP skill named like a local one would otherwise be dropped.
 */
import path from "node:path";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { skillStubDir } from "./skill-stubs.js";

const SKILL_PREFIX = "skill:";

/** Pi's own skill names now (none when Pi cannot tell yet). */
export function localSkillNames(pi: Pick<ExtensionAPI, "getCommands">, agentDir: string): string[] {
  const stubs = `${path.resolve(skillStubDir(agentDir))}${path.sep}`;
  try {
    return pi
      .getCommands()
      .filter((command) => command.source === "skill" && command.name.startsWith(SKILL_PREFIX))
      .filter((command) => !path.resolve(command.sourceInfo?.path ?? "").startsWith(stubs))
      .map((command) => command.name.slice(SKILL_PREFIX.length));
  } catch {
    // Pi has not bound its commands yet (no session): no local names known.
    return [];
  }
}
