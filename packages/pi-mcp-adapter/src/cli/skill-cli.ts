/**
 * The CLI's `skills [server]` and `skill <name> [file]`: the MCP skills
 * (SEP-2640) the servers offer — name, server, URI, description and files,
 * listed live (the servers start) — and one skill loaded as the model would
 * read it: verified against what its server published and tagged with its
 * origin. Typing the command is the user's approval of that load.
 */
import { refusedSkillNote } from "@pi-mcp-adapter/catalog";
import { type AdapterRuntime, runSkillRequest } from "@pi-mcp-adapter/runtime";
import type { CliOutput } from "./cli-context.js";
import { CliError } from "./cli-error.js";
import { callResultOutput } from "./connect-cli.js";

type Skill = Awaited<ReturnType<AdapterRuntime["catalog"]["knownSkills"]>>[number];

const filesOf = (skill: Skill) =>
  skill.entry.resources === "dynamic"
    ? "dynamic"
    : skill.entry.resources.map((file) => ({ uri: file.uri, size: file.size, digest: file.digest }));

export async function listSkillsCli(runtime: AdapterRuntime, server: string | undefined): Promise<CliOutput> {
  const view = await runtime.catalog.view(server);
  const skills = (await runtime.catalog.knownSkills()).filter(
    (s) => server === undefined || s.server === server,
  );
  const lines = skills.map((skill) => {
    const files = filesOf(skill);
    const count =
      files === "dynamic"
        ? "files served on request"
        : `${files.length} file${files.length === 1 ? "" : "s"}`;
    return `- ${skill.name} (${skill.server}, ${skill.uri}, ${count})\n  ${skill.description}`;
  });
  // Entries the checks refused stay out of the list, and are named with why.
  const refused = runtime.listings
    .summaries()
    .filter((s) => server === undefined || s.name === server)
    .flatMap((s) => (s.refusedSkills ?? []).map((entry) => ({ server: s.name, ...entry })));
  const unavailable = view.unavailable.map((u) =>
    u.sentence ? u.error : `${u.server}: unavailable (${u.error})`,
  );
  const text = [
    skills.length
      ? `MCP skills (load one: pi-mcp-adapter skill <name>; in Pi: /skill:<name>):`
      : `No MCP skills${server ? ` on ${server}` : ""}.`,
    ...lines,
    ...refused.map((r) => refusedSkillNote(r.server, r)),
    ...unavailable,
  ].join("\n");
  return {
    text,
    json: {
      skills: skills.map((s) => ({
        name: s.name,
        server: s.server,
        uri: s.uri,
        description: s.description,
        frontmatter: s.entry.frontmatter,
        files: filesOf(s),
      })),
      refused: refused.map((r) => ({
        server: r.server,
        name: r.name ?? null,
        uri: r.uri ?? null,
        reason: r.reason,
      })),
      unavailable: view.unavailable,
    },
  };
}

export async function showSkillCli(
  runtime: AdapterRuntime,
  name: string,
  file: string | undefined,
): Promise<CliOutput> {
  if (!name) throw new CliError("cli_usage", "skill needs a skill name (see: pi-mcp-adapter skills)");
  await runtime.catalog.view();
  return callResultOutput(
    await runSkillRequest(runtime, {
      skill: name,
      origin: "command",
      ...(file !== undefined ? { file } : {}),
    }),
  );
}
