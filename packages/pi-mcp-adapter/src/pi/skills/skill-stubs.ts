/**
 * MCP skills as Pi's own skills see them: one small stub `SKILL.md` per MCP
 * skill, in a folder of the agent dir that none of Pi's own skill locations
 * covers (`<agent dir>/mcp-adapter/skills/`, user-only: 0700 folders, 0600
 * files), handed to Pi through `resources_discover`. Pi lists each stub's
 * name and description in the system prompt like any skill; its body holds
 * no content of the server's, only how to load the real skill through the
 * adapter (`mcp({ action: "skill" })`), where it is approved, verified and tagged.
 * Stubs of skills no longer offered are removed.
 */
import { chmod, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** What a stub says of one MCP skill. */
export interface StubSkill {
  name: string;
  server: string;
  uri: string;
  description: string;
}

/** The stubs' folder under the agent dir (outside `<agent dir>/skills`, which Pi scans itself). */
export function skillStubDir(agentDir: string): string {
  return path.join(agentDir, "mcp-adapter", "skills");
}

const MAX_DESCRIPTION = 1024;

/** The stub `SKILL.md` of `skill`. */
export function stubText(skill: StubSkill): string {
  const marked = `${oneLine(skill.description)} (MCP skill from server ${skill.server})`;
  const description = marked.length > MAX_DESCRIPTION ? `${marked.slice(0, MAX_DESCRIPTION - 1)}…` : marked;
  return [
    "---",
    `name: ${skill.name}`,
    `description: ${JSON.stringify(description)}`,
    "---",
    `This skill is served by the MCP server "${skill.server}" (${skill.uri}); its instructions are not in this file.`,
    `Load them with the mcp tool: mcp({ action: "skill", args: { name: "${skill.name}" } }).`,
    `Its supporting files, when the instructions name one: mcp({ action: "skill", args: { name: "${skill.name}", file: "<path>" } }).`,
    "",
  ].join("\n");
}

/** Writes a stub per skill (and removes stale ones); returns the folder to hand to Pi. */
export async function writeSkillStubs(agentDir: string, skills: readonly StubSkill[]): Promise<string> {
  const dir = skillStubDir(agentDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(path.dirname(dir), 0o700);
  await chmod(dir, 0o700);
  const wanted = new Set(skills.map((s) => s.name));
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!wanted.has(entry.name)) await rm(path.join(dir, entry.name), { recursive: true, force: true });
  }
  for (const skill of skills) {
    const folder = path.join(dir, skill.name);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await chmod(folder, 0o700);
    const file = path.join(folder, "SKILL.md");
    await writeFile(file, stubText(skill), { mode: 0o600 });
    await chmod(file, 0o600);
  }
  return dir;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
