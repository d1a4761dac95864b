/**
 * Each host's server shape mapped to ours. The result is raw entries in the
 * adapter's own shape, validated afterwards like any other config entry.
 * Host-only fields we have no use for are dropped silently (they are not
 * mistakes in the user's file).
 */
import path from "node:path";
import { isPlainObject } from "../layers/config-layer.js";
import type { HostFormat } from "./host-locations.js";

export interface HostEntry {
  name: string;
  raw: Record<string, unknown>;
  keyPath: string;
  /** A note for the user about this entry (e.g. VS Code `${input:…}` values). */
  warning?: string;
}

export function extractHostEntries(format: HostFormat, document: unknown, cwd: string): HostEntry[] {
  if (!isPlainObject(document)) return [];
  switch (format) {
    case "mcpServers":
      return objectEntries(document.mcpServers, "mcpServers", mapMcpServersEntry);
    case "claude-code": {
      const user = objectEntries(document.mcpServers, "mcpServers", mapMcpServersEntry);
      const projects = isPlainObject(document.projects) ? document.projects : {};
      const key = Object.keys(projects).find((p) => path.resolve(p) === path.resolve(cwd));
      const local = key
        ? objectEntries(
            (projects[key] as Record<string, unknown>)?.mcpServers,
            `projects.${key}.mcpServers`,
            mapMcpServersEntry,
          )
        : [];
      return [...user, ...local];
    }
    case "opencode": {
      const mcp = document.mcp;
      const servers = isPlainObject(mcp) && isPlainObject(mcp.servers) ? mcp.servers : mcp;
      const base = isPlainObject(mcp) && isPlainObject(mcp.servers) ? "mcp.servers" : "mcp";
      return objectEntries(servers, base, mapOpenCodeEntry);
    }
    case "vscode":
      return objectEntries(document.servers, "servers", (raw) => mapVsCodeEntry(raw, cwd));
    case "codex":
      return objectEntries(document.mcp_servers, "mcp_servers", mapCodexEntry);
  }
}

type Mapper = (raw: Record<string, unknown>) => { raw: Record<string, unknown>; warning?: string };

function objectEntries(value: unknown, base: string, map: Mapper): HostEntry[] {
  if (!isPlainObject(value)) return [];
  return Object.entries(value)
    .filter((pair): pair is [string, Record<string, unknown>] => isPlainObject(pair[1]))
    .map(([name, raw]) => ({ name, keyPath: `${base}.${name}`, ...map(raw) }));
}

function pick(raw: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
}

const COMMON = ["type", "command", "args", "env", "cwd", "url", "headers", "disabled"] as const;

/** Cursor, Claude Code, Claude Desktop, Windsurf (`serverUrl` for remote servers). */
function mapMcpServersEntry(raw: Record<string, unknown>) {
  const mapped = pick(raw, COMMON);
  if (mapped.url === undefined && typeof raw.serverUrl === "string") mapped.url = raw.serverUrl;
  return { raw: mapped };
}

function mapOpenCodeEntry(raw: Record<string, unknown>) {
  const mapped: Record<string, unknown> = {};
  if (raw.type === "local") {
    mapped.type = "stdio";
    if (Array.isArray(raw.command)) {
      mapped.command = raw.command[0];
      mapped.args = raw.command.slice(1);
    } else mapped.command = raw.command;
    if (raw.environment !== undefined) mapped.env = raw.environment;
  } else {
    mapped.type = raw.type === "remote" ? "http" : raw.type;
    mapped.url = raw.url;
    if (raw.headers !== undefined) mapped.headers = raw.headers;
  }
  if (raw.enabled === false) mapped.disabled = true;
  return { raw: mapped };
}

function mapVsCodeEntry(raw: Record<string, unknown>, cwd: string) {
  const expand = (value: unknown): unknown => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the host's own placeholder syntax
    if (typeof value === "string") return value.replaceAll("${workspaceFolder}", cwd);
    if (Array.isArray(value)) return value.map(expand);
    if (isPlainObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
    return value;
  };
  const mapped = expand(pick(raw, COMMON)) as Record<string, unknown>;
  const usesInputs = JSON.stringify(mapped).includes("${input:");
  return {
    raw: mapped,
    warning: usesInputs
      ? // biome-ignore lint/suspicious/noTemplateCurlyInString: the host's own placeholder syntax
        "uses VS Code ${input:…} prompts, which the adapter cannot ask for; set those values directly"
      : undefined,
  };
}

function mapCodexEntry(raw: Record<string, unknown>) {
  const mapped = pick(raw, ["command", "args", "env", "cwd", "url"]);
  const headers: Record<string, unknown> = isPlainObject(raw.http_headers) ? { ...raw.http_headers } : {};
  if (isPlainObject(raw.env_http_headers)) {
    for (const [header, variable] of Object.entries(raw.env_http_headers))
      headers[header] = `\${${String(variable)}}`;
  }
  if (Object.keys(headers).length > 0) mapped.headers = headers;
  if (typeof raw.bearer_token_env_var === "string") mapped.bearerTokenEnv = raw.bearer_token_env_var;
  if (raw.enabled === false) mapped.disabled = true;
  if (typeof raw.tool_timeout_sec === "number")
    mapped.requestTimeoutMs = Math.round(raw.tool_timeout_sec * 1000);
  if (raw.enabled_tools !== undefined) mapped.includeTools = raw.enabled_tools;
  if (raw.disabled_tools !== undefined) mapped.excludeTools = raw.disabled_tools;
  return { raw: mapped };
}
