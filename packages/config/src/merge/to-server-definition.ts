/** Turns one merged server entry into a `ConfiguredServer`, or into problems when it cannot run. */
import type { TransportKind } from "@pi-mcp-adapter/core";
import type { ConfiguredServer } from "../layers/configured-server.js";
import type { ServerEntry } from "../layers/server-entry.js";
import type { ConfigProblem } from "../problems.js";
import { hasVariable } from "../secrets/interpolate.js";
import { checkCaFile } from "./ca-file.js";
import type { MergedEntry } from "./merge-config-layers.js";

/** Transport names other hosts use, mapped to ours. */
const TRANSPORT_ALIASES: Record<string, TransportKind> = {
  stdio: "stdio",
  local: "stdio",
  http: "http",
  streamable: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  remote: "http",
  sse: "sse",
  socket: "socket",
};

export function toServerDefinition(merged: MergedEntry): {
  server?: ConfiguredServer;
  problems: ConfigProblem[];
} {
  const { entry, source } = merged;
  const problem = (field: string, message: string): ConfigProblem => ({
    severity: "error",
    file: source.file,
    field: `${source.key}.${field}`,
    message,
  });
  const transport = resolveTransport(entry);
  if ("error" in transport) return { problems: [problem(transport.field, transport.error)] };
  if (entry.url !== undefined && !hasVariable(entry.url) && !isHttpUrl(entry.url)) {
    return { problems: [problem("url", `expected an http(s) URL, found "${entry.url.slice(0, 80)}"`)] };
  }
  // A CA bundle that cannot be read skips the server: it must never run with trust it was not given.
  const ca = entry.caFile === undefined ? undefined : checkCaFile(entry.caFile, source.file, merged.name);
  if (ca && "error" in ca) return { problems: [problem("caFile", ca.error)] };
  if (entry.sandbox && transport.kind !== "stdio") {
    return {
      problems: [
        problem(
          "sandbox",
          `only a stdio server (one with a command) can be sandboxed, not ${transport.kind}`,
        ),
      ],
    };
  }
  // Sharing is an optimisation: a remote server asked to share still runs, on its own connection.
  const problems: ConfigProblem[] = [];
  if (entry.shared === true && transport.kind !== "stdio") {
    problems.push({
      ...problem(
        "shared",
        `server "${merged.name}": only a stdio server (one with a command) can be shared, not ${transport.kind}; it runs unshared`,
      ),
      severity: "warning",
    });
  }
  const server: ConfiguredServer = {
    name: merged.name,
    transport: transport.kind,
    command: entry.command,
    args: entry.args,
    env: entry.env,
    cwd: entry.cwd,
    sandbox: entry.sandbox,
    shared: transport.kind === "stdio" ? entry.shared : undefined,
    url: entry.url,
    headers: entry.headers,
    caFile: ca?.path,
    socket: entry.socket,
    lifecycle: entry.lifecycle ?? "lazy",
    idleTimeoutMin: entry.idleTimeout,
    requestTimeoutMs: entry.requestTimeoutMs,
    maxTotalTimeoutMs: entry.maxTotalTimeoutMs,
    tasks: entry.tasks,
    taskTimeoutMs: entry.taskTimeoutMs,
    protocol: entry.protocol ?? "legacy",
    toolPrefix: entry.toolPrefix,
    directTools: entry.directTools === "search" ? true : entry.directTools,
    directToolsExposure: entry.directTools === "search" ? "search" : undefined,
    includeTools: entry.includeTools,
    excludeTools: entry.excludeTools,
    approveTools: entry.approveTools,
    searchKeywords: entry.searchKeywords,
    description: entry.description,
    disabled: entry.disabled,
    debug: entry.debug,
    inheritEnv: entry.inheritEnv,
    literalEnv: entry.literalEnv,
    bearerToken: entry.bearerToken,
    bearerTokenEnv: entry.bearerTokenEnv,
    bearerTokenStore: entry.bearerTokenStore,
    requestHeadersCommand: entry.requestHeadersCommand,
    secretTtlSec: entry.secretTtlSec,
    auth: entry.auth,
    oauth: entry.oauth,
    oauthClientName: entry.oauthClientName,
    extra: Object.keys(merged.extra).length > 0 ? merged.extra : undefined,
    source,
    scope: merged.scope,
    layers: merged.layers,
  };
  return { server: dropUndefined(server), problems };
}

function resolveTransport(entry: ServerEntry): { kind: TransportKind } | { error: string; field: string } {
  const declared = entry.type ?? entry.transport;
  const field = entry.type !== undefined ? "type" : "transport";
  const endpoints = [
    entry.command !== undefined && "command",
    entry.url !== undefined && "url",
    entry.socket !== undefined && "socket",
  ].filter(Boolean);
  if (endpoints.length > 1) {
    return {
      error: `set only one of command, url and socket (found ${endpoints.join(", ")})`,
      field: "command",
    };
  }
  if (declared !== undefined) {
    const kind = Object.hasOwn(TRANSPORT_ALIASES, declared) ? TRANSPORT_ALIASES[declared] : undefined;
    if (!kind)
      return { error: `unknown transport "${declared}" (expected stdio, http, sse or socket)`, field };
    const needs = kind === "stdio" ? "command" : kind === "socket" ? "socket" : "url";
    if (entry[needs] === undefined)
      return { error: `transport "${declared}" needs "${needs}"`, field: needs };
    return { kind };
  }
  if (entry.command !== undefined) return { kind: "stdio" };
  if (entry.url !== undefined) return { kind: "http" };
  if (entry.socket !== undefined) return { kind: "socket" };
  return { error: 'needs "command" (stdio), "url" (HTTP) or "socket"', field: "command" };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
