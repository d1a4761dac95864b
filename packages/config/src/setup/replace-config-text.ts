/**
 * Saving a whole config file a person edited (`/mcp-adapter edit`): the
 * text is checked as the loader would read it (JSONC syntax, the file's
 * shape, every server entry) and written only when nothing is wrong and the
 * file still holds what the editor started from. Warnings (unknown keys)
 * do not block the save; they are returned to be shown.
 */
import { withFileLock } from "@pi-mcp-adapter/core";
import { ConfigError } from "../errors.js";
import { parseJsoncText, readConfigText } from "../files/read-json-file.js";
import { parseConfigLayer } from "../layers/config-layer.js";
import { layerCheckNow } from "../layers/layer-check-loader.js";
import type { SourceScope } from "../layers/source-scope.js";
import { toServerDefinition } from "../merge/to-server-definition.js";
import { type ConfigProblem, formatProblem } from "../problems.js";
import { writeKeepingMode } from "./edit-config-file.js";

/** Problems the loader would report for `text` as the content of `file`. */
export function checkConfigText(file: string, text: string, scope: SourceScope): ConfigProblem[] {
  const parsed = parseJsoncText(file, text);
  if (parsed.kind === "error") return [parsed.problem];
  if (parsed.kind !== "ok") return [];
  const layer = parseConfigLayer(parsed.value, file, scope, layerCheckNow());
  const problems = [...layer.problems];
  for (const entry of layer.entries) {
    const merged = { ...entry, scope, layers: [entry.source] };
    problems.push(...toServerDefinition(merged).problems);
  }
  return problems;
}

/**
 * Writes `next` when it has no errors and the file still holds `expected`
 * (`undefined`: the file did not exist). Returns the warnings; throws
 * `ConfigError("invalid_config")` listing the errors, or `write_failed`
 * when the file changed meanwhile. The file is untouched whenever it throws.
 */
export async function replaceConfigText(
  file: string,
  expected: string | undefined,
  next: string,
  scope: SourceScope,
): Promise<ConfigProblem[]> {
  const problems = checkConfigText(file, next, scope);
  const errors = problems.filter((p) => p.severity === "error");
  if (errors.length) {
    throw new ConfigError("invalid_config", `Not saved: ${errors.map(formatProblem).join("; ")}`);
  }
  await withFileLock(file, async () => {
    const current = await readConfigText(file);
    const now = current.kind === "ok" ? current.text : undefined;
    if (current.kind === "error" || now !== expected) {
      throw new ConfigError(
        "write_failed",
        `Not saved: ${file} changed while it was being edited; edit it again`,
      );
    }
    await writeKeepingMode(file, next.endsWith("\n") ? next : `${next}\n`);
  });
  return problems;
}
