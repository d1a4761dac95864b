/**
 * One server entry as users write it (Claude Code / Cursor style
 * `mcpServers` entries, plus the adapter's own options): unknown keys
 * reported, the rest checked by the `LayerCheck` handed in (zod's schema in
 * `server-entry-schema.ts`, or the plain copy for a file validated before).
 * Conversion to core's `ServerDefinition` happens after merging, in
 * `to-server-definition.ts`, because a higher layer may only override a few
 * fields (e.g. `{ "disabled": true }`).
 */
import type { ConfigProblem } from "../problems.js";
import { OAUTH_OPTION_KEYS, SERVER_ENTRY_KEYS } from "./entry-keys.js";
import type { LayerCheck } from "./layer-check.js";
import {
  applyReferenceAliases,
  REFERENCE_ONLY,
  REFERENCE_ONLY_OAUTH_KEYS,
  REFERENCE_ONLY_SERVER_KEYS,
} from "./reference-aliases.js";
import type { ServerEntry } from "./server-entry-schema.js";

export type { OAuthOptions, ServerEntry } from "./server-entry-schema.js";

const KNOWN_KEYS: ReadonlySet<string> = new Set(SERVER_ENTRY_KEYS);
const KNOWN_OAUTH_KEYS: ReadonlySet<string> = new Set(OAUTH_OPTION_KEYS);

export interface ParsedEntry {
  entry: ServerEntry;
  /** Keys the schema does not know, kept verbatim. */
  extra: Record<string, unknown>;
}

/**
 * Validates one entry. An invalid entry yields only problems (it is skipped);
 * unknown keys yield warnings and are kept in `extra`.
 */
export function parseServerEntry(
  raw: unknown,
  file: string,
  keyPath: string,
  check: LayerCheck,
): { parsed?: ParsedEntry; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { problems: [{ severity: "error", file, field: keyPath, message: "expected an object" }] };
  }
  const entry = applyReferenceAliases(raw as Record<string, unknown>, file, keyPath, problems);
  if (problems.some((p) => p.severity === "error")) return { problems };
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (KNOWN_KEYS.has(key)) continue;
    extra[key] = value;
    problems.push({
      severity: "warning",
      file,
      field: `${keyPath}.${key}`,
      message: REFERENCE_ONLY_SERVER_KEYS.has(key) ? REFERENCE_ONLY : "unknown option, kept but not used",
    });
  }
  const oauth = entry.oauth;
  if (oauth && typeof oauth === "object" && !Array.isArray(oauth)) {
    for (const key of Object.keys(oauth)) {
      if (!KNOWN_OAUTH_KEYS.has(key)) {
        problems.push({
          severity: "warning",
          file,
          field: `${keyPath}.oauth.${key}`,
          message: REFERENCE_ONLY_OAUTH_KEYS.has(key) ? REFERENCE_ONLY : "unknown option, ignored",
        });
      }
    }
  }
  const result = check.entry(entry);
  if (!result.success) {
    for (const issue of result.issues) {
      const field = [keyPath, ...issue.path.map(String)].join(".");
      problems.push({ severity: "error", file, field, message: issue.message });
    }
    return { problems };
  }
  return { parsed: { entry: result.data, extra }, problems };
}

/** True when the entry names an endpoint, i.e. defines a server rather than adjusting one. */
export function definesEndpoint(entry: ServerEntry): boolean {
  return entry.command !== undefined || entry.url !== undefined || entry.socket !== undefined;
}
