/**
 * Configs written for the reference adapter (pi-mcp-adapter 2.x) keep
 * working: its server keys whose meaning matches one of ours are read as
 * ours (`protocolVersion` → `protocol`, `httpTransport` → `transport`,
 * `literalEnv: true` → every `env` value passed verbatim). Where both names
 * are set, ours wins and the other is reported. Its keys we do not support
 * stay warnings, saying so.
 */
import type { ConfigProblem } from "../problems.js";

/** 2.x's `httpTransport` values, mapped to our transport names. */
const HTTP_TRANSPORTS: Record<string, string> = { "streamable-http": "http", sse: "sse" };

/** Reference keys with no counterpart here: each is still reported, with this reason. */
export const REFERENCE_ONLY_SERVER_KEYS: ReadonlySet<string> = new Set([
  "exposeResources",
  "trace",
  "pluginDataDir",
]);
export const REFERENCE_ONLY_OAUTH_KEYS: ReadonlySet<string> = new Set([]);
export const REFERENCE_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  "warnOnLargeDirectTools",
  "authRequiredMessage",
]);
export const REFERENCE_ONLY = "a pi-mcp-adapter 2.x option this version does not support; ignored";

/**
 * `raw` with the reference's names rewritten to ours; a copy when anything
 * changed. Values are not validated here: the schema does that under our name.
 */
export function applyReferenceAliases(
  raw: Record<string, unknown>,
  file: string,
  keyPath: string,
  problems: ConfigProblem[],
): Record<string, unknown> {
  const entry = { ...raw };
  const conflict = (theirs: string, ours: string) =>
    problems.push({
      severity: "warning",
      file,
      field: `${keyPath}.${theirs}`,
      message: `both "${theirs}" (the 2.x name) and "${ours}" are set; "${ours}" is used`,
    });

  if (Object.hasOwn(entry, "protocolVersion")) {
    if (entry.protocol === undefined) entry.protocol = entry.protocolVersion;
    else if (entry.protocol !== entry.protocolVersion) conflict("protocolVersion", "protocol");
    delete entry.protocolVersion;
  }

  if (Object.hasOwn(entry, "httpTransport")) {
    const value = entry.httpTransport;
    const mapped =
      typeof value === "string" && Object.hasOwn(HTTP_TRANSPORTS, value) ? HTTP_TRANSPORTS[value] : undefined;
    if (mapped === undefined) {
      problems.push({
        severity: "error",
        file,
        field: `${keyPath}.httpTransport`,
        message: `expected "streamable-http" or "sse", found ${JSON.stringify(value)}`,
      });
    } else if (entry.type === undefined && entry.transport === undefined) entry.transport = mapped;
    else if ((entry.type ?? entry.transport) !== mapped)
      conflict("httpTransport", entry.type !== undefined ? "type" : "transport");
    delete entry.httpTransport;
  }

  // 2.x: `literalEnv: true` passes `env` values as they are. Here `literalEnv` is that map itself.
  if (typeof entry.literalEnv === "boolean") {
    if (entry.literalEnv && entry.env !== undefined) {
      entry.literalEnv = entry.env;
      delete entry.env;
    } else delete entry.literalEnv;
  }
  return entry;
}
