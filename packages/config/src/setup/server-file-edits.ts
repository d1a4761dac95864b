/**
 * Adding and removing one server in a config file (`add`, `remove` in the
 * CLI and in Pi). The new entry is validated exactly as the loader would
 * read it before anything is written; the write changes only that entry
 * (comments and formatting elsewhere stay byte for byte) and goes through
 * the locked, atomic, mode-keeping `editConfigFile`.
 */
import path from "node:path";
import { ConfigError } from "../errors.js";
import { AGENT_CONFIG_FILE, type ConfigEnvironment, PROJECT_CONFIG_FILE } from "../files/config-sources.js";
import { isPlainObject } from "../layers/config-layer.js";
import { layerCheckNow } from "../layers/layer-check-loader.js";
import { parseServerEntry } from "../layers/server-entry.js";
import { toServerDefinition } from "../merge/to-server-definition.js";
import { formatProblem } from "../problems.js";
import { editConfigFile, objectAt } from "./edit-config-file.js";

/** The file `add`/`remove` write: the agent dir's `mcp-adapter.json` (user) or the project's `.mcp.json`. */
export function serverConfigFile(
  scope: "user" | "project",
  cwd: string,
  environment: Pick<ConfigEnvironment, "agentDir">,
): string {
  return scope === "project"
    ? path.join(cwd, PROJECT_CONFIG_FILE)
    : path.join(environment.agentDir, AGENT_CONFIG_FILE);
}

/** Throws `ConfigError("invalid_config")` naming every problem when the entry would not load as a server. */
export function validateServerEntry(file: string, name: string, entry: Record<string, unknown>): void {
  const keyPath = `mcpServers.${name}`;
  const problems = [];
  if (!name.trim() || name === "__proto__") {
    throw new ConfigError("invalid_config", `Not a usable server name: "${name}"`);
  }
  const parsed = parseServerEntry(entry, file, keyPath, layerCheckNow());
  problems.push(...parsed.problems);
  if (parsed.parsed) {
    const source = { file, key: keyPath };
    const merged = { name, ...parsed.parsed, source, scope: "user" as const, layers: [source] };
    problems.push(...toServerDefinition(merged).problems);
  }
  if (problems.length) {
    throw new ConfigError(
      "invalid_config",
      `Not adding "${name}": ${problems.map(formatProblem).join("; ")}`,
    );
  }
}

export interface AddServerResult {
  file: string;
  /** True when an existing definition was replaced (`force`). */
  replaced: boolean;
}

/** Writes `entry` as `mcpServers.<name>`; an existing name needs `force`. */
export async function addServerToFile(
  file: string,
  name: string,
  entry: Record<string, unknown>,
  options: { force?: boolean } = {},
): Promise<AddServerResult> {
  validateServerEntry(file, name, entry);
  let replaced = false;
  await editConfigFile(file, (document) => {
    if (arrayFormIndex(document, name) >= 0) {
      throw new ConfigError(
        "server_exists",
        `"${name}" is defined in the mcp.servers list of ${file}; change it there (or remove it first)`,
      );
    }
    const servers = objectAt(document, "mcpServers", file);
    if (Object.hasOwn(servers, name)) {
      if (!options.force) {
        throw new ConfigError(
          "server_exists",
          `"${name}" is already defined in ${file}; add --force to replace it`,
        );
      }
      replaced = true;
    }
    servers[name] = structuredClone(entry);
    return true;
  });
  return { file, replaced };
}

/** Removes the server `name` defines in `file` (either form). Throws `server_not_found` when the file has none. */
export async function removeServerFromFile(file: string, name: string): Promise<void> {
  const changed = await editConfigFile(file, (document) => {
    const servers = document.mcpServers;
    if (isPlainObject(servers) && Object.hasOwn(servers, name)) {
      delete servers[name];
      return true;
    }
    const index = arrayFormIndex(document, name);
    if (index < 0) return false;
    (document.mcp as { servers: unknown[] }).servers.splice(index, 1);
    return true;
  });
  if (!changed) throw new ConfigError("server_not_found", `${file} defines no server named "${name}"`);
}

function arrayFormIndex(document: Record<string, unknown>, name: string): number {
  const list = isPlainObject(document.mcp) ? document.mcp.servers : undefined;
  return Array.isArray(list) ? list.findIndex((s) => isPlainObject(s) && s.name === name) : -1;
}
