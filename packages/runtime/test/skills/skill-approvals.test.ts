/**
 * Approving MCP skills (SEP-2640) through the runtime, against the skills
 * fixture server (the SDK's `SkillsExtension` over stdio): the dialog names
 * the skill, its server and the files the approval binds (path and size),
 * not the generic tool wording; a skill the user loads by command gives a
 * grant the host hears of (the Pi shell keeps it with its session), which a
 * new runtime restored from it honours for the same files and not for
 * changed ones.
 */
import { appendFile } from "node:fs/promises";
import path from "node:path";
import type { SessionGrant } from "@pi-mcp-adapter/approval";
import { FIXTURE_SKILLS } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import {
  type AdapterRuntime,
  type Host,
  headlessHost,
  runProxyRequest,
  runSkillRequest,
} from "../../src/index.js";
import { approving, skillsBed, textOf } from "./skills-bed.js";

const bed = skillsBed("pi-mcp-skill-approvals-");
const runtimeWith = (host: Host, cacheName?: string) =>
  bed.runtime({ host, ...(cacheName ? { cacheName } : {}) });

const bytes = (text: string | undefined) => Buffer.byteLength(text ?? "");
const modelLoads = (runtime: AdapterRuntime, file?: string) =>
  runProxyRequest(runtime, {
    action: "skill",
    args: { name: "docs-pdf-processing", ...(file ? { file } : {}) },
  });

describe("the approval dialog of an MCP skill", () => {
  it("names the skill, its server and every file the approval binds, with sizes", async () => {
    const asked: string[] = [];
    const runtime = runtimeWith(approving("Allow once", asked));
    await runtime.catalog.view("docs");
    expect(textOf(await modelLoads(runtime))).toContain("PELICAN-7");
    expect(textOf(await modelLoads(runtime, "references/FORMS.md"))).toContain("HERON-3");
    const files = FIXTURE_SKILLS["pdf-processing"]!;
    const total = bytes(files["SKILL.md"]) + bytes(files["references/FORMS.md"]);
    expect(asked[0]).toBe(
      [
        "Load MCP skill docs-pdf-processing from server docs (skill://pdf-processing/SKILL.md)?",
        "Its content is written by the server, not by you; it reaches the model as untrusted.",
        `Allowing covers these 2 files (${total} bytes) as listed; a changed file asks again:`,
        `  SKILL.md (${bytes(files["SKILL.md"])} bytes)`,
        `  references/FORMS.md (${bytes(files["references/FORMS.md"])} bytes)`,
      ].join("\n"),
    );
    expect(asked[1]).toMatch(
      /^Let the model read references\/FORMS.md of MCP skill docs-pdf-processing \(server docs\)\?\n/,
    );
    expect(asked.join("\n")).not.toContain("Allow MCP tool");
  });
});

describe("a skill the user loaded by command", () => {
  it("gives a grant the host keeps, which covers the same files in a new session and not changed ones", async () => {
    const grants: SessionGrant[] = [];
    const first = runtimeWith(headlessHost());
    first.approvals.onGrant((grant) => grants.push(grant));
    await first.catalog.view("docs");
    const loaded = await runSkillRequest(first, { skill: "docs-pdf-processing", origin: "command" });
    expect(textOf(loaded)).toContain("PELICAN-7");
    expect(grants).toEqual([
      {
        server: "docs",
        tool: "skill://pdf-processing/SKILL.md",
        definition: expect.any(String),
        fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
    ]);
    // Loaded again by command: the session holds that grant already, nothing new to keep.
    await runSkillRequest(first, { skill: "docs-pdf-processing", origin: "command" });
    expect(grants).toHaveLength(1);
    await first.shutdown();

    // The next session (same files): the model loads it without a dialog.
    const asked: string[] = [];
    const next = runtimeWith(approving("Allow once", asked));
    next.approvals.restoreGrants(grants);
    expect(textOf(await modelLoads(next))).toContain("PELICAN-7");
    expect(asked).toEqual([]);
    await next.shutdown();

    // A file of the skill changed on the server: its files are another set, so the user is asked.
    await appendFile(path.join(bed.skillsDir(), "pdf-processing", "references", "FORMS.md"), "More.\n");
    const changed = runtimeWith(approving("Allow once", asked), "fresh-cache.json");
    changed.approvals.restoreGrants(grants);
    await changed.catalog.view("docs");
    expect(textOf(await modelLoads(changed))).toContain("PELICAN-7");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("docs-pdf-processing");
  });

  it("a dynamic skill's dialog says its files are served unchecked", async () => {
    const asked: string[] = [];
    const runtime = runtimeWith(approving("Deny", asked));
    await runtime.catalog.view("docs");
    const [skill] = (await runtime.catalog.knownSkills()).filter((s) => s.name === "docs-release-notes");
    const result = await runtime.run({
      target: {
        kind: "skill",
        server: "docs",
        name: "docs-release-notes",
        entry: { ...skill!.entry, resources: "dynamic" },
      },
      args: {},
    });
    expect(result.isError).toBe(true);
    expect(asked[0]).toContain("The server lists no files for it: each file it serves is read unchecked.");
  });
});
