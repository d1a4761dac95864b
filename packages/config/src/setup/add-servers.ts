/**
 * Adds server entries (curated ones, or definitions copied from Pi's own
 * `mcp.json`) to one of the adapter's own files or the project's `.mcp.json`.
 * A name the file already defines is left as it is: setup never overwrites a
 * definition the user wrote.
 */
import { ConfigError } from "../errors.js";
import { layerCheckNow } from "../layers/layer-check-loader.js";
import { parseServerEntry } from "../layers/server-entry.js";
import { formatProblem } from "../problems.js";
import { editConfigFile, objectAt } from "./edit-config-file.js";

export interface AddServersResult {
  file: string;
  added: string[];
  /** Names the file already had; their definitions were kept. */
  kept: string[];
  changed: boolean;
}

/** Throws `ConfigError` when an entry is invalid (naming it) or the file cannot be written. */
export async function addServers(
  file: string,
  servers: Readonly<Record<string, Record<string, unknown>>>,
): Promise<AddServersResult> {
  for (const [name, entry] of Object.entries(servers)) {
    const errors = parseServerEntry(entry, file, `mcpServers.${name}`, layerCheckNow()).problems.filter(
      (p) => p.severity === "error",
    );
    if (errors.length || !name.trim() || name === "__proto__") {
      const why = errors.map(formatProblem).join("; ") || "not a usable server name";
      throw new ConfigError("write_failed", `Not adding "${name}": ${why}`);
    }
  }
  const result: AddServersResult = { file, added: [], kept: [], changed: false };
  result.changed = await editConfigFile(file, (document) => {
    const existing = objectAt(document, "mcpServers", file);
    for (const [name, entry] of Object.entries(servers)) {
      if (Object.hasOwn(existing, name)) result.kept.push(name);
      else {
        existing[name] = structuredClone(entry);
        result.added.push(name);
      }
    }
    return result.added.length > 0;
  });
  return result;
}

/** Creates the project's `.mcp.json` with an empty `mcpServers`; an existing file is left untouched. */
export async function createProjectConfig(file: string): Promise<{ file: string; created: boolean }> {
  const created = await editConfigFile(file, (document) => {
    if (Object.keys(document).length > 0) return false;
    document.mcpServers = {};
    return true;
  });
  return { file, created };
}
