/**
 * One config document turned into a layer: its server entries (from the
 * `mcpServers` object and the `mcp.servers` array), `disabledMcpServers`,
 * `settings` and `imports`. Nothing is merged or resolved here.
 */
import type { Provenance } from "@pi-mcp-adapter/core";
import type { ConfigProblem } from "../problems.js";
import type { LayerCheck } from "./layer-check.js";
import { type ParsedEntry, parseServerEntry } from "./server-entry.js";
import { parseSettings, type Settings } from "./settings.js";
import type { SourceScope } from "./source-scope.js";

export interface LayerEntry extends ParsedEntry {
  name: string;
  source: Provenance;
}

export interface ConfigLayer {
  file: string;
  scope: SourceScope;
  entries: LayerEntry[];
  disabledNames: string[];
  settings: Settings;
  /** Unknown settings keys, kept verbatim. */
  settingsExtra: Record<string, unknown>;
  /** Host formats named in `imports`, unvalidated. */
  imports: string[];
  problems: ConfigProblem[];
}

const TOP_LEVEL_KEYS = new Set(["$schema", "mcpServers", "mcp", "disabledMcpServers", "settings", "imports"]);

export function emptyLayer(file: string, scope: SourceScope): ConfigLayer {
  return {
    file,
    scope,
    entries: [],
    disabledNames: [],
    settings: {},
    settingsExtra: {},
    imports: [],
    problems: [],
  };
}

/** One document as a layer; its entries and settings checked by `check` (see `layer-check.ts`). */
export function parseConfigLayer(
  document: unknown,
  file: string,
  scope: SourceScope,
  check: LayerCheck,
): ConfigLayer {
  const layer = emptyLayer(file, scope);
  const problems = layer.problems;
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    problems.push({ severity: "error", file, message: "expected a JSON object at the top level" });
    return layer;
  }
  const doc = document as Record<string, unknown>;
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_KEYS.has(key)) {
      problems.push({ severity: "warning", file, field: key, message: "unknown top-level key, ignored" });
    }
  }
  const seen = new Set<string>();
  const add = (name: string, raw: unknown, keyPath: string) => {
    if (!name.trim()) {
      problems.push({ severity: "error", file, field: keyPath, message: "server name must not be empty" });
      return;
    }
    if (seen.has(name)) {
      problems.push({
        severity: "error",
        file,
        field: keyPath,
        message: `duplicate server name "${name}" (already defined in this file); this entry is skipped`,
      });
      return;
    }
    const result = parseServerEntry(raw, file, keyPath, check);
    problems.push(...result.problems);
    if (!result.parsed) return;
    seen.add(name);
    layer.entries.push({ name, ...result.parsed, source: { file, key: keyPath } });
  };

  const mcpServers = doc.mcpServers;
  if (mcpServers !== undefined) {
    if (isPlainObject(mcpServers)) {
      for (const [name, raw] of Object.entries(mcpServers)) add(name, raw, `mcpServers.${name}`);
    } else {
      problems.push({
        severity: "error",
        file,
        field: "mcpServers",
        message: "expected an object of servers by name",
      });
    }
  }

  const mcp = doc.mcp;
  if (mcp !== undefined) {
    const servers = isPlainObject(mcp) ? mcp.servers : undefined;
    if (!isPlainObject(mcp) || !Array.isArray(servers)) {
      problems.push({ severity: "error", file, field: "mcp", message: 'expected { "servers": [ … ] }' });
    } else {
      servers.forEach((raw, index) => {
        const keyPath = `mcp.servers.${index}`;
        const name = isPlainObject(raw) ? raw.name : undefined;
        if (typeof name !== "string") {
          problems.push({
            severity: "error",
            file,
            field: `${keyPath}.name`,
            message: "each server needs a string name",
          });
          return;
        }
        add(name, raw, keyPath);
      });
    }
  }

  const disabled = doc.disabledMcpServers;
  if (disabled !== undefined) {
    if (Array.isArray(disabled) && disabled.every((n) => typeof n === "string")) {
      layer.disabledNames = disabled as string[];
    } else {
      problems.push({
        severity: "error",
        file,
        field: "disabledMcpServers",
        message: "expected an array of server names",
      });
    }
  }

  const settings = parseSettings(doc.settings, file, check);
  layer.settings = settings.settings;
  layer.settingsExtra = settings.extra;
  problems.push(...settings.problems);

  const imports = doc.imports;
  if (imports !== undefined) {
    if (Array.isArray(imports) && imports.every((n) => typeof n === "string"))
      layer.imports = imports as string[];
    else
      problems.push({
        severity: "error",
        file,
        field: "imports",
        message: "expected an array of host names",
      });
  }
  return layer;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
