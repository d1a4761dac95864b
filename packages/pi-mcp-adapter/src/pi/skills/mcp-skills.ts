/**
 * MCP skills (SEP-2640) in Pi, the way Pi's own skills work: advertised by
 * name and description in the system prompt (stub files handed over in
 * `resources_discover`, skill-stubs.ts) — from this session's runtime when it
 * is made, else from the startup snapshot's cached listings, so a lazy server
 * not started yet still offers its skills — and loaded only when asked:
 * `/skill:<name>` typed by the user (that command is their approval) is
 * answered here in Pi's `input` hook with the verified, origin-tagged skill;
 * the model loads one through `mcp({ action: "skill" })`, which asks the user.
 * An MCP skill named like one of Pi's own is renamed, never shadowing it
 * (local-skills.ts).
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { nameSkills } from "@pi-mcp-adapter/catalog";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import type { StartupSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { localSkillNames } from "./local-skills.js";
import { type StubSkill, writeSkillStubs } from "./skill-stubs.js";

export interface McpSkillsDeps {
  agentDir: string;
  snapshot: () => StartupSnapshot | undefined;
  runtimeFor: (ctx: ExtensionContext) => Promise<AdapterRuntime>;
  madeRuntime: (ctx: ExtensionContext) => Promise<AdapterRuntime> | undefined;
}

const SKILL_COMMAND = /^\/skill:(\S+)(?:\s+([\s\S]*))?$/;

export function registerMcpSkills(pi: ExtensionAPI, deps: McpSkillsDeps): void {
  /**
   * The skills on offer. At `resources_discover` (Pi's start, `/reload`) a runtime still being made is not
   * waited for: making it may hold a project-server approval dialog, and in RPC mode a dialog awaited during
   * Pi's start ends the process. The cached listings answer then.
   */
  const offered = async (ctx: ExtensionContext, waitForRuntime: boolean): Promise<StubSkill[]> => {
    const made = deps.madeRuntime(ctx)?.catch(() => undefined);
    // A race with a settled promise: the runtime when it is already made, else undefined at once.
    const runtime = waitForRuntime ? await made : await Promise.race([made, Promise.resolve(undefined)]);
    if (runtime) return runtime.catalog.knownSkills();
    const listed = (deps.snapshot()?.servers ?? []).flatMap(({ server, listing }) =>
      listing?.skills ? [{ server: server.name, skills: listing.skills }] : [],
    );
    // The runtime's names come the same way (its host hands it Pi's own skill names): the same everywhere.
    return nameSkills(listed, localSkillNames(pi, deps.agentDir));
  };

  pi.on("resources_discover", async (_event, ctx) => {
    const skills = await offered(ctx, false).catch(() => []);
    if (skills.length === 0) return undefined;
    return { skillPaths: [await writeSkillStubs(deps.agentDir, skills)] };
  });

  pi.on("input", async (event, ctx) => {
    const command = SKILL_COMMAND.exec(event.text.trim());
    if (!command || event.source === "extension") return { action: "continue" as const };
    const [, name = "", args] = command;
    if (!(await offered(ctx, true).catch(() => [])).some((skill) => skill.name === name)) {
      return { action: "continue" as const };
    }
    const runtime = await deps.runtimeFor(ctx);
    // The runtime's index loads with the first use, not at Pi's start (see host/runtime-loading.ts).
    const { runSkillRequest } = await import("@pi-mcp-adapter/runtime");
    const result = await runSkillRequest(runtime, { skill: name, origin: "command" }).catch(
      (error: unknown) => ({
        content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
        isError: true,
      }),
    );
    const text = result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
    if (result.isError) {
      ctx.ui.notify(text, "error");
      return { action: "handled" as const };
    }
    return { action: "transform" as const, text: args?.trim() ? `${text}\n\nUser: ${args.trim()}` : text };
  });
}
