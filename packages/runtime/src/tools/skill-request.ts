/**
 * Loading an MCP skill by the name the model and the user know it by
 * (`docs-pdf-processing`), or one of its files: the proxy tool's
 * `mcp({ action: "skill", args: { name, file } })`, the shell's `/skill:<name>` and the CLI all come
 * here, and from here through the call pipeline (approval, invoke, output
 * guard, observers).
 */
import type { AdapterRuntime } from "../adapter-runtime.js";
import type { CallResult } from "../calls/call-result.js";
import { RuntimeError } from "../errors.js";
import type { CallOrigin } from "../observability/call-observers.js";

export interface SkillRequest {
  /** The skill's name as offered (`<server>-<skill>`). */
  skill: string;
  /** A supporting file, relative to the skill's folder; left out, the skill itself. */
  file?: string;
  /** `command` when the user asked for it (`/skill:`): that is their approval. Default `proxy`. */
  origin?: CallOrigin;
  signal?: AbortSignal;
}

/** `mcp({ action: "skill", args: { name, file? } })`'s arguments, checked. */
export function skillArgs(args: Record<string, unknown>): Pick<SkillRequest, "skill" | "file"> {
  const { name, file } = args;
  if (typeof name !== "string" || name === "" || (file !== undefined && typeof file !== "string")) {
    throw new RuntimeError(
      "invalid_args",
      'action "skill" takes args: { name: "<skill>", file?: "<path in the skill>" } (the names are in the system prompt\'s skills)',
    );
  }
  return { skill: name, ...(file !== undefined ? { file } : {}) };
}

export async function runSkillRequest(runtime: AdapterRuntime, request: SkillRequest): Promise<CallResult> {
  const skills = await runtime.catalog.knownSkills();
  const skill = skills.find((s) => s.name === request.skill);
  if (!skill) {
    const known = skills.map((s) => s.name).join(", ");
    throw new RuntimeError(
      "unknown_skill",
      `No MCP skill named "${request.skill.slice(0, 80)}"${known ? `; the servers offer: ${known}` : "; no server offers skills"}`,
    );
  }
  return runtime.run({
    target: {
      kind: "skill",
      server: skill.server,
      entry: skill.entry,
      name: skill.name,
      ...(request.file !== undefined ? { file: request.file } : {}),
    },
    args: {},
    origin: request.origin ?? "proxy",
    ...(request.signal ? { signal: request.signal } : {}),
  });
}
