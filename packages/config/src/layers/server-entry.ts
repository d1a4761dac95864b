/**
 * The shape users write for one server (Claude Code / Cursor style
 * `mcpServers` entries, plus the adapter's own options), validated with zod.
 * Conversion to core's `ServerDefinition` happens after merging, in
 * `to-server-definition.ts`, because a higher layer may only override a few
 * fields (e.g. `{ "disabled": true }`).
 */
import {
  ApproveToolsSettingSchema,
  IdleTimeoutMinutesSchema,
  LifecycleSchema,
  MaxTotalTimeoutMsSchema,
  ProtocolModeSchema,
  RequestTimeoutMsSchema,
  SandboxSettingSchema,
  SearchKeywordsSettingSchema,
  ShareServersSettingSchema,
  TaskModeSchema,
  TaskTimeoutMsSchema,
  ToolGlobListSchema,
  ToolPrefixModeSchema,
} from "@pi-mcp-adapter/core";
import { z } from "zod";
import type { ConfigProblem } from "../problems.js";
import { RequestHeadersCommandSchema } from "../secrets/request-headers-command.js";
import { OAuthClientOptionsShape } from "./oauth-client-options.js";
import {
  applyReferenceAliases,
  REFERENCE_ONLY,
  REFERENCE_ONLY_OAUTH_KEYS,
  REFERENCE_ONLY_SERVER_KEYS,
} from "./reference-aliases.js";

const StringMap = z.record(z.string(), z.string());
const StringList = z.array(z.string());

export const OAuthOptionsSchema = z.object({
  clientId: z.string().min(1).optional(),
  /** May be a `!command` secret; resolved only when authenticating. */
  clientSecret: z.string().min(1).optional(),
  clientName: z.string().min(1).optional(),
  scope: z.string().optional(),
  scopes: StringList.optional(),
  redirectUri: z.string().optional(),
  callbackPort: z.number().int().min(0).max(65535).optional(),
  authorizationServerUrl: z.string().optional(),
  skipIssuerMetadataValidation: z.boolean().optional(),
  dpop: z.boolean().optional(),
  ...OAuthClientOptionsShape,
});
export type OAuthOptions = z.infer<typeof OAuthOptionsSchema>;

export const ServerEntrySchema = z.object({
  /** Only in the `mcp.servers` array form. */
  name: z.string().optional(),
  type: z.string().optional(),
  transport: z.string().optional(),
  command: z.string().min(1, "must not be empty").optional(),
  args: StringList.optional(),
  env: StringMap.optional(),
  cwd: z.string().optional(),
  sandbox: SandboxSettingSchema.optional(),
  /** Stdio only: `true`/`false` overrides `settings.shareServers` for this server. */
  shared: ShareServersSettingSchema.optional(),
  url: z.string().min(1, "must not be empty").optional(),
  headers: StringMap.optional(),
  /** PEM bundle of a private CA for an HTTPS server; relative paths are read from the config file's folder. */
  caFile: z.string().min(1, "must not be empty").optional(),
  socket: z.string().min(1).optional(),
  lifecycle: LifecycleSchema.optional(),
  idleTimeout: IdleTimeoutMinutesSchema.optional(),
  requestTimeoutMs: RequestTimeoutMsSchema.optional(),
  maxTotalTimeoutMs: MaxTotalTimeoutMsSchema.optional(),
  tasks: TaskModeSchema.optional(),
  taskTimeoutMs: TaskTimeoutMsSchema.optional(),
  protocol: ProtocolModeSchema.optional(),
  toolPrefix: ToolPrefixModeSchema.optional(),
  directTools: z.union([z.boolean(), z.literal("search"), z.literal("auto"), StringList]).optional(),
  includeTools: ToolGlobListSchema.optional(),
  excludeTools: ToolGlobListSchema.optional(),
  approveTools: ApproveToolsSettingSchema.optional(),
  searchKeywords: SearchKeywordsSettingSchema.optional(),
  /** What the server is for, in a few words: the proxy tool's server roster shows it to the model. */
  description: z.string().optional(),
  disabled: z.boolean().optional(),
  debug: z.boolean().optional(),
  inheritEnv: z.boolean().optional(),
  literalEnv: StringMap.optional(),
  bearerToken: z.string().min(1).optional(),
  bearerTokenEnv: z.string().min(1).optional(),
  /** Read the bearer token from the credential store (`pi-mcp-adapter token set <server>`). */
  bearerTokenStore: z.literal(true).optional(),
  /** A program computing headers for each HTTP request (request-headers-command.ts). */
  requestHeadersCommand: RequestHeadersCommandSchema.optional(),
  /** Seconds a `!command` header or bearer token is used before the command runs again. */
  secretTtlSec: z.number().positive().optional(),
  auth: z.union([z.literal(false), z.enum(["oauth", "bearer"])]).optional(),
  oauth: z.union([z.literal(false), OAuthOptionsSchema]).optional(),
  oauthClientName: z.string().min(1).optional(),
});
export type ServerEntry = z.infer<typeof ServerEntrySchema>;

const KNOWN_KEYS = new Set(Object.keys(ServerEntrySchema.shape));
const KNOWN_OAUTH_KEYS = new Set(Object.keys(OAuthOptionsSchema.shape));

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
  const result = ServerEntrySchema.safeParse(entry);
  if (!result.success) {
    for (const issue of result.error.issues.flatMap(closestUnionIssues)) {
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

/**
 * A value that fits no option of a union (`oauth: false | {…}`) is reported
 * by the option of its own type (an object's bad fields), not as "Invalid input".
 */
function closestUnionIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  // The option the value's type fits fails only below its root.
  const sameType = issue.errors.filter((errors) => errors.every((e) => e.path.length > 0));
  if (sameType.length !== 1 || !sameType[0]) return [issue];
  return sameType[0].map((e) => ({ ...e, path: [...issue.path, ...e.path] }));
}
