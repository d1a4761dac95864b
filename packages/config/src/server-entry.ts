/**
 * The shape users write for one server (Claude Code / Cursor style
 * `mcpServers` entries, plus the adapter's own options), and its conversion to
 * core's `ServerDefinition`.
 */
import {
  LifecycleSchema,
  ProtocolModeSchema,
  type ServerDefinition,
  ToolPrefixModeSchema,
  type TransportKind,
} from "@pi-mcp-adapter/core";
import { z } from "zod";
import type { ConfigProblem } from "./problems.js";

const StringMap = z.record(z.string(), z.string());
const StringList = z.array(z.string());

/** Transport names other hosts use, mapped to ours. */
const TRANSPORT_ALIASES: Record<string, TransportKind> = {
  stdio: "stdio",
  http: "http",
  streamable: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  sse: "sse",
  socket: "socket",
};

export const ServerEntrySchema = z.object({
  type: z.string().optional(),
  transport: z.string().optional(),
  command: z.string().min(1, "must not be empty").optional(),
  args: StringList.optional(),
  env: StringMap.optional(),
  cwd: z.string().optional(),
  url: z.url().optional(),
  headers: StringMap.optional(),
  socket: z.string().min(1).optional(),
  lifecycle: LifecycleSchema.optional(),
  idleTimeout: z.number().nonnegative().optional(),
  requestTimeoutMs: z.number().int().positive().optional(),
  protocol: ProtocolModeSchema.optional(),
  toolPrefix: ToolPrefixModeSchema.optional(),
  directTools: z.union([z.boolean(), StringList]).optional(),
  includeTools: StringList.optional(),
  excludeTools: StringList.optional(),
  approveTools: z.union([z.boolean(), z.literal("destructive"), StringList]).optional(),
  searchKeywords: z.record(z.string(), StringList).optional(),
  disabled: z.boolean().optional(),
  debug: z.boolean().optional(),
});
export type ServerEntry = z.infer<typeof ServerEntrySchema>;

const KNOWN_KEYS = new Set(Object.keys(ServerEntrySchema.shape));

export type EntryResult =
  | { definition: ServerDefinition; problems: ConfigProblem[] }
  | { problems: ConfigProblem[] };

/**
 * Validates one entry. An invalid entry yields only problems (it is skipped);
 * unknown keys yield warnings and are otherwise ignored.
 */
export function parseServerEntry(name: string, raw: unknown, file: string, keyPath: string): EntryResult {
  const problems: ConfigProblem[] = [];
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { problems: [{ severity: "error", file, field: keyPath, message: "expected an object" }] };
  }
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key)) {
      problems.push({
        severity: "warning",
        file,
        field: `${keyPath}.${key}`,
        message: "unknown option, ignored",
      });
    }
  }
  const parsed = ServerEntrySchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = [keyPath, ...issue.path.map(String)].join(".");
      problems.push({ severity: "error", file, field, message: issue.message });
    }
    return { problems };
  }
  const entry = parsed.data;
  const transport = resolveTransport(entry);
  if ("error" in transport) {
    problems.push({
      severity: "error",
      file,
      field: `${keyPath}.${transport.field}`,
      message: transport.error,
    });
    return { problems };
  }
  const definition: ServerDefinition = {
    name,
    transport: transport.kind,
    command: entry.command,
    args: entry.args,
    env: entry.env,
    cwd: entry.cwd,
    url: entry.url,
    headers: entry.headers,
    socket: entry.socket,
    lifecycle: entry.lifecycle ?? "lazy",
    idleTimeoutMin: entry.idleTimeout,
    requestTimeoutMs: entry.requestTimeoutMs,
    protocol: entry.protocol ?? "legacy",
    toolPrefix: entry.toolPrefix,
    directTools: entry.directTools,
    includeTools: entry.includeTools,
    excludeTools: entry.excludeTools,
    approveTools: entry.approveTools,
    searchKeywords: entry.searchKeywords,
    disabled: entry.disabled,
    debug: entry.debug,
    source: { file, key: keyPath },
  };
  return { definition, problems };
}

function resolveTransport(entry: ServerEntry): { kind: TransportKind } | { error: string; field: string } {
  const declared = entry.type ?? entry.transport;
  const field = entry.type !== undefined ? "type" : "transport";
  const endpoints = [entry.command && "command", entry.url && "url", entry.socket && "socket"].filter(
    Boolean,
  );
  if (endpoints.length > 1) {
    return {
      error: `set only one of command, url and socket (found ${endpoints.join(", ")})`,
      field: "command",
    };
  }
  if (declared !== undefined) {
    const kind = TRANSPORT_ALIASES[declared];
    if (!kind) {
      return { error: `unknown transport "${declared}" (expected stdio, http, sse or socket)`, field };
    }
    const needs = kind === "stdio" ? "command" : kind === "socket" ? "socket" : "url";
    if (!entry[needs]) return { error: `transport "${declared}" needs "${needs}"`, field: needs };
    return { kind };
  }
  if (entry.command) return { kind: "stdio" };
  if (entry.url) return { kind: "http" };
  if (entry.socket) return { kind: "socket" };
  return { error: 'needs "command" (stdio), "url" (HTTP) or "socket"', field: "command" };
}
