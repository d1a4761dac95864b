/**
 * Turns config files into a `ResolvedConfig`.
 *
 * Today it reads the project's `.mcp.json` (or one explicit file); the full
 * six-source merge, host imports and trust gating build on this.
 */
import path from "node:path";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import type { ConfigProblem } from "./problems.js";
import { readJsonFile } from "./read-json-file.js";
import { parseServerEntry } from "./server-entry.js";

export interface ResolvedConfig {
  /** Enabled and disabled servers alike, in file order; check `disabled`. */
  servers: ServerDefinition[];
  /** Files that were read, lowest precedence first. */
  sources: string[];
  problems: ConfigProblem[];
}

export interface LoadConfigOptions {
  /** Project directory; `.mcp.json` is read from here. */
  cwd: string;
  /** An explicit config file, read instead of the project's `.mcp.json`. */
  configPath?: string;
}

export const PROJECT_CONFIG_FILE = ".mcp.json";

export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const file = options.configPath
    ? path.resolve(options.cwd, options.configPath)
    : path.join(options.cwd, PROJECT_CONFIG_FILE);
  const result: ResolvedConfig = { servers: [], sources: [], problems: [] };
  const read = await readJsonFile(file);
  if (read.kind === "missing") {
    if (options.configPath)
      result.problems.push({ severity: "error", file, message: "config file not found" });
    return result;
  }
  if (read.kind === "error") {
    result.problems.push(read.problem);
    return result;
  }
  result.sources.push(file);
  const parsed = parseMcpServers(read.value, file);
  result.servers.push(...parsed.servers);
  result.problems.push(...parsed.problems);
  return result;
}

/** Reads the `mcpServers` object of one parsed config document. */
export function parseMcpServers(
  document: unknown,
  file: string,
): { servers: ServerDefinition[]; problems: ConfigProblem[] } {
  const servers: ServerDefinition[] = [];
  const problems: ConfigProblem[] = [];
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    problems.push({ severity: "error", file, message: "expected a JSON object at the top level" });
    return { servers, problems };
  }
  const mcpServers = (document as Record<string, unknown>).mcpServers;
  if (mcpServers === undefined) return { servers, problems };
  if (mcpServers === null || typeof mcpServers !== "object" || Array.isArray(mcpServers)) {
    problems.push({
      severity: "error",
      file,
      field: "mcpServers",
      message: "expected an object of servers by name",
    });
    return { servers, problems };
  }
  for (const [name, raw] of Object.entries(mcpServers)) {
    const keyPath = `mcpServers.${name}`;
    if (!name.trim()) {
      problems.push({ severity: "error", file, field: keyPath, message: "server name must not be empty" });
      continue;
    }
    const entry = parseServerEntry(name, raw, file, keyPath);
    problems.push(...entry.problems);
    if ("definition" in entry) servers.push(entry.definition);
  }
  return { servers, problems };
}
