/**
 * Servers other Pi extensions register for one session (Pi 1.x
 * `pi.registerMcpServer()`, or the `pi-mcp-adapter:runtime-register:v1`
 * event) as one more config source. It ranks below every file: a name a
 * config file defines keeps the file's definition, and the registration is
 * reported as overridden. Registrations are never written anywhere.
 *
 * Entries take the `mcpServers` shape. Pi's own fields are read with their
 * meaning here: `enabled: false` disables, `timeout` (seconds) is the request
 * timeout, `exposure` / `toolExposure` `"direct"` and `"deferred"` ask for
 * direct tools (`"search"` for deferred), `"hidden"` leaves tools out;
 * `"codemode"` (Pi's default) means the proxy only.
 */
import type { Provenance } from "@pi-mcp-adapter/core";
import type { ConfiguredServer } from "../layers/configured-server.js";
import { layerCheckNow } from "../layers/layer-check-loader.js";
import { parseServerEntry } from "../layers/server-entry.js";
import { configHash } from "../merge/definition-hash.js";
import { toServerDefinition } from "../merge/to-server-definition.js";
import type { ConfigProblem } from "../problems.js";
import type { ResolvedConfig } from "../resolved-config.js";

/** One server an extension registered. */
export interface ExtensionServerRegistration {
  name: string;
  /** The entry as registered (`mcpServers` shape; Pi's fields allowed). */
  config: unknown;
  /** The registering extension's path, when the host says (Pi 1.x does; the event bus does not). */
  registeredBy?: string;
  /** How it was registered: Pi's MCP server API, or the adapter's event-bus contract. */
  via: "pi" | "event-bus";
}

/** A registration a config file's server of the same name outranks. */
export interface OverriddenRegistration {
  name: string;
  registeredBy: string;
  /** The file whose definition is used instead. */
  configuredIn: string;
}

export interface ExtensionServers {
  /** Admitted registrations as configured servers (scope `extension`). */
  servers: ConfiguredServer[];
  /** Why a registration was skipped, or what was ignored in it; each names the registering extension. */
  problems: ConfigProblem[];
  overridden: OverriddenRegistration[];
}

/** How the `file` of a registered server's provenance (and of its problems) starts. */
export const REGISTERED_SOURCE_PREFIX = "<registered by ";

/** Whether a provenance `file` names a registration rather than a file. */
export function isRegisteredSource(file: string): boolean {
  return file.startsWith(REGISTERED_SOURCE_PREFIX);
}

/** Who registered a server, as status and warnings say it. */
export function registrantLabel(
  registration: Pick<ExtensionServerRegistration, "registeredBy" | "via">,
): string {
  if (registration.registeredBy) return `extension ${registration.registeredBy}`;
  return registration.via === "event-bus"
    ? "an extension over pi-mcp-adapter:runtime-register:v1 (the event does not say which)"
    : "an extension (Pi did not say which)";
}

/**
 * Turns registrations into servers beside `configured` (the servers config
 * files define): a name already configured is overridden, an invalid entry is
 * skipped with an error naming its registrant.
 */
export function extensionServers(
  registrations: readonly ExtensionServerRegistration[],
  configured: readonly Pick<ConfiguredServer, "name" | "source">[],
): ExtensionServers {
  const out: ExtensionServers = { servers: [], problems: [], overridden: [] };
  const seen = new Set<string>();
  for (const registration of registrations) {
    const registrant = registrantLabel(registration);
    const source: Provenance = {
      file: `${REGISTERED_SOURCE_PREFIX}${registrant}>`,
      key: `mcpServers.${registration.name}`,
    };
    const fileDefined = configured.find((s) => s.name === registration.name);
    if (fileDefined) {
      out.overridden.push({
        name: registration.name,
        registeredBy: registrant,
        configuredIn: fileDefined.source.file,
      });
      out.problems.push({
        severity: "info",
        file: source.file,
        field: source.key,
        message: `overridden: "${registration.name}" is defined in ${fileDefined.source.file}, which takes precedence`,
      });
      continue;
    }
    if (seen.has(registration.name)) {
      out.problems.push({
        severity: "error",
        file: source.file,
        field: source.key,
        message: `"${registration.name}" is already registered by another extension; this registration is skipped`,
      });
      continue;
    }
    const converted = convertRegistration(registration, source);
    out.problems.push(...converted.problems);
    if (!converted.server) continue;
    seen.add(registration.name);
    out.servers.push(converted.server);
  }
  return out;
}

/**
 * `config` with the registrations added as servers (see `extensionServers`):
 * problems and the config hash follow.
 */
export function withExtensionServers(
  config: ResolvedConfig,
  registrations: readonly ExtensionServerRegistration[],
): ResolvedConfig {
  if (registrations.length === 0) return config;
  const added = extensionServers(registrations, config.servers);
  const servers = [...config.servers, ...added.servers];
  return {
    ...config,
    servers,
    problems: [...config.problems, ...added.problems],
    configHash: configHash(servers),
  };
}

/** Checks one registration as a config entry would be checked; problems name its registrant. */
export function convertRegistration(
  registration: ExtensionServerRegistration,
  source: Provenance = {
    file: `${REGISTERED_SOURCE_PREFIX}${registrantLabel(registration)}>`,
    key: `mcpServers.${registration.name}`,
  },
): { server?: ConfiguredServer; problems: ConfigProblem[] } {
  if (!registration.name.trim()) {
    return { problems: [{ severity: "error", file: source.file, message: "server name must not be empty" }] };
  }
  const translated = fromPiFields(registration.config);
  const parsed = parseServerEntry(translated, source.file, source.key, layerCheckNow());
  if (!parsed.parsed) return { problems: parsed.problems };
  const result = toServerDefinition({
    name: registration.name,
    entry: parsed.parsed.entry,
    extra: parsed.parsed.extra,
    source,
    scope: "extension",
    layers: [source],
  });
  return { server: result.server, problems: [...parsed.problems, ...result.problems] };
}

type Exposure = "codemode" | "deferred" | "direct" | "hidden";

/** Pi's `mcpServers` fields, read with their meaning here; other keys pass through to the usual checks. */
function fromPiFields(raw: unknown): unknown {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const { enabled, timeout, exposure, toolExposure, ...rest } = raw as Record<string, unknown>;
  const entry: Record<string, unknown> = { ...rest };
  if (enabled === false && entry.disabled === undefined) entry.disabled = true;
  if (typeof timeout === "number" && timeout > 0 && entry.requestTimeoutMs === undefined) {
    entry.requestTimeoutMs = Math.round(timeout * 1000);
  }
  if (entry.directTools !== undefined) return entry;
  const overrides = isExposureMap(toolExposure) ? toolExposure : {};
  const exposed = Object.entries(overrides);
  if (exposure === "hidden") {
    // Hidden by default: only the tools an override exposes are reachable (none: the server is off).
    const shown = exposed.filter(([, e]) => e !== "hidden").map(([name]) => name);
    if (shown.length === 0) entry.disabled = entry.disabled ?? true;
    else if (entry.includeTools === undefined) entry.includeTools = shown;
  }
  if (exposure === "direct") entry.directTools = true;
  else if (exposure === "deferred") entry.directTools = "search";
  else {
    const direct = exposed.filter(([, e]) => e === "direct" || e === "deferred").map(([name]) => name);
    if (direct.length > 0) entry.directTools = direct;
  }
  const hidden = exposed.filter(([, e]) => e === "hidden").map(([name]) => name);
  if (hidden.length > 0 && entry.excludeTools === undefined) entry.excludeTools = hidden;
  return entry;
}

function isExposureMap(value: unknown): value is Record<string, Exposure> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
