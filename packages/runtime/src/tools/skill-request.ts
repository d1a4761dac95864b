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
  /** The skill's name as offered (`<server>-<skill>`); or `server` and `uri` for one listed or not. */
  skill?: string;
  server?: string;
  /** The skill's `SKILL.md` URI on `server`, fetched with `skills/get`. */
  uri?: string;
  /** A supporting file, relative to the skill's folder; left out, the skill itself. */
  file?: string;
  /** `command` when the user asked for it (`/skill:`): that is their approval. Default `proxy`. */
  origin?: CallOrigin;
  signal?: AbortSignal;
}

/** `mcp({ action: "skill", args: { name, file? } })`'s arguments, checked. */
export function skillArgs(
  args: Record<string, unknown>,
  server: string | undefined,
): Pick<SkillRequest, "skill" | "server" | "uri" | "file"> {
  const { name, uri, file } = args;
  const byName = typeof name === "string" && name !== "";
  const byUri = typeof uri === "string" && uri !== "" && server !== undefined;
  if ((!byName && !byUri) || (file !== undefined && typeof file !== "string")) {
    throw new RuntimeError(
      "invalid_args",
      'action "skill" takes args: { name: "<skill>", file?: "<path in the skill>" } (names are in the system prompt\'s skills), or server and args: { uri }',
    );
  }
  return {
    ...(byName ? { skill: name } : { server, uri: uri as string }),
    ...(file !== undefined ? { file } : {}),
  };
}

export async function runSkillRequest(runtime: AdapterRuntime, request: SkillRequest): Promise<CallResult> {
  const skill =
    request.uri !== undefined && request.server !== undefined
      ? await runtime.catalog.skillByUri(request.server, request.uri)
      : await skillNamed(runtime, request.skill ?? "");
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

async function skillNamed(runtime: AdapterRuntime, name: string) {
  const skills = await runtime.catalog.knownSkills();
  const skill = skills.find((s) => s.name === name);
  if (skill) return skill;
  const known = skills.map((s) => s.name).join(", ");
  throw new RuntimeError(
    "unknown_skill",
    `No MCP skill named "${name.slice(0, 80)}"${known ? `; the servers offer: ${known}` : "; no server offers skills"}`,
  );
}
