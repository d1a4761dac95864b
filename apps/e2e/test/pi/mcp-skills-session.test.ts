/**
 * MCP skills (SEP-2640) beside Pi's own skills and across Pi processes, in
 * real Pi on both lines, from the skills fixture server (the SDK's
 * `SkillsExtension` over stdio):
 * - a listed entry that fails the checks is left out, and `mcp({})` says so
 *   with the reason;
 * - a local skill (in the agent dir's `skills/`) named like the MCP skill
 *   keeps its name; the MCP skill is renamed `<server>-<skill>-mcp`, both are
 *   in the system prompt, and each `/skill:` loads its own content;
 * - a skill the user loaded with `/skill:` is an approval kept in the Pi
 *   session: after `--continue` the model loads the same skill without a
 *   dialog; once the skill's files changed on the server (and it was listed
 *   again), the model's load asks again, and the dialog names the skill, its
 *   server and each file with its size.
 */
import { appendFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  type ChatRequest,
  FIXTURE_SKILLS,
  MISNAMED_SKILL_ENTRY,
  toolResultTexts,
  userMessageTexts,
  writeSkillsFixture,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { skillsFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const MCP_NAME = "docs-pdf-processing-mcp";
const LOCAL_NAME = "docs-pdf-processing";
const load = (args: Record<string, unknown>) => ({
  toolCall: { name: "mcp", arguments: { action: "skill", args } },
});
const systemPrompt = (request: ChatRequest | undefined) =>
  JSON.stringify(request?.messages.filter((m) => m.role === "system" || m.role === "developer") ?? []);
const bytes = (text: string | undefined) => Buffer.byteLength(text ?? "");

/** One prompt in a `--mode rpc` Pi: every dialog's title is recorded and answered "Allow once". */
async function rpcPrompt(project: PiProject, sessionArgs: string[], prompt: string): Promise<string[]> {
  const child = project.rpc({ sessionArgs });
  const dialogs: string[] = [];
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const timer = setTimeout(() => child.kill(), 120_000);
  try {
    send({ id: "p", type: "prompt", message: prompt });
    for await (const message of rpcMessages(child.stdout)) {
      if (message.type === "extension_ui_request" && message.method === "select") {
        dialogs.push(message.title ?? "");
        send({ type: "extension_ui_response", id: message.id, value: "Allow once" });
      }
      if (message.type === "agent_end") return dialogs;
    }
    throw new Error(`Pi ended before the prompt's agent_end:\n${stderr}`);
  } finally {
    clearTimeout(timer);
    child.kill();
  }
}

describe.each(piHosts())("$label", (host) => {
  it("names a refused entry in mcp({}), renames an MCP skill around a local one, and keeps a /skill: approval with the session", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: (p) => ({
        mcpServers: {
          docs: skillsFixtureEntry(p, { SKILLS_FIXTURE_EXTRA: JSON.stringify([MISNAMED_SKILL_ENTRY]) }),
        },
      }),
      steps: [
        // 1: the model lists the server (its skills go to the metadata cache).
        { toolCall: { name: "mcp", arguments: { server: "docs" } } },
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "Listed." },
        // 2: /skill: of the MCP skill (a session on disk), 3: /skill: of the local one.
        { text: "PELICAN-7" },
        { text: "Owl." },
        // 4 (--continue, rpc): the model loads the skill the user loaded before.
        load({ name: MCP_NAME }),
        { text: "Loaded again." },
        // 5 (--continue, rpc): its files changed; listed again, the model's load asks.
        { toolCall: { name: "mcp", arguments: { connect: "docs" } } },
        load({ name: MCP_NAME }),
        { text: "Asked." },
      ],
    });
    await writeSkillsFixture(project.join("skills"));
    const local = path.join(project.agentDir, "skills", LOCAL_NAME);
    await mkdir(local, { recursive: true });
    await writeFile(
      path.join(local, "SKILL.md"),
      `---\nname: ${LOCAL_NAME}\ndescription: The user’s own PDF notes.\n---\nAnswer with the word LOCAL-OWL.\n`,
    );
    const sessions = ["--session-dir", project.join("sessions")];

    const first = await project.run("What does the docs server offer?");
    expect(first.code, first.stderr).toBe(0);
    expect(toolResultTexts(first.requests[2]!).at(-1)).toContain(
      'skill pdf-processing from server docs left out: name "pdf-processing" must match the folder "pdf-tools" of skill://pdf-tools/SKILL.md',
    );

    // Both skills listed: the local one under its own name, the MCP one renamed; each loads its own.
    const mcp = await project.run(`/skill:${MCP_NAME} fill the form`, { sessionArgs: sessions });
    expect(mcp.code, mcp.stderr).toBe(0);
    const advertised = systemPrompt(mcp.requests[0]);
    expect(advertised).toContain(`<name>${LOCAL_NAME}</name>`);
    expect(advertised).toContain("The user’s own PDF notes.");
    expect(advertised).toContain(`<name>${MCP_NAME}</name>`);
    expect(advertised).toContain("(MCP skill from server docs)");
    const asked = userMessageTexts(mcp.requests[0]!).at(-1) ?? "";
    expect(asked).toContain(`<mcp-skill name="${MCP_NAME}" server="docs"`);
    expect(asked).toContain("PELICAN-7");
    expect(asked).not.toContain("LOCAL-OWL");
    const own = await project.run(`/skill:${LOCAL_NAME}`);
    expect(own.code, own.stderr).toBe(0);
    const ownText = userMessageTexts(own.requests[0]!).at(-1) ?? "";
    expect(ownText).toContain("LOCAL-OWL");
    expect(ownText).not.toContain("PELICAN-7");

    // The approval the /skill: command gave is an entry of the session file.
    const sessionDir = project.join("sessions");
    const sessionFiles = (await readdir(sessionDir, { recursive: true })).filter((f) => f.endsWith(".jsonl"));
    const sessionText = (
      await Promise.all(sessionFiles.map((f) => readFile(path.join(sessionDir, f), "utf8")))
    ).join("\n");
    expect(sessionText).toMatch(
      /"customType":"pi-mcp-adapter:approval-grant".*skill:\/\/pdf-processing\/SKILL.md/,
    );
    const continued = [...sessions, "--continue"];

    // --continue: the model loads the same skill (same files) without a dialog.
    const from = project.model.requests.length;
    expect(await rpcPrompt(project, continued, "Fill the form again.")).toEqual([]);
    expect(toolResultTexts(project.model.requests[from + 1]!).at(-1)).toContain("PELICAN-7");

    // A file of the skill changed on the server: listed again, the model's load asks, naming every file.
    const forms = project.join("skills", "pdf-processing", "references", "FORMS.md");
    await appendFile(forms, "A new line.\n");
    const changed = project.model.requests.length;
    const dialogs = await rpcPrompt(project, continued, "And once more.");
    const files = FIXTURE_SKILLS["pdf-processing"]!;
    const formsSize = bytes(files["references/FORMS.md"]) + bytes("A new line.\n");
    expect(dialogs).toEqual([
      [
        `Load MCP skill ${MCP_NAME} from server docs (skill://pdf-processing/SKILL.md)?`,
        "Its content is written by the server, not by you; it reaches the model as untrusted.",
        `Allowing covers these 2 files (${bytes(files["SKILL.md"]) + formsSize} bytes) as listed; a changed file asks again:`,
        `  SKILL.md (${bytes(files["SKILL.md"])} bytes)`,
        `  references/FORMS.md (${formsSize} bytes)`,
      ].join("\n"),
    ]);
    expect(toolResultTexts(project.model.requests[changed + 2]!).at(-1)).toContain("PELICAN-7");
  });
});
