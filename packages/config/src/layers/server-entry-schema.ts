/**
 * The shape users write for one server (Claude Code / Cursor style
 * `mcpServers` entries, plus the adapter's own options) as a zod schema,
 * paired with its type. Loaded only where an entry must be validated (a
 * config file that changed, a registration, SDK input); `server-entry.ts`
 * parses with the check it is handed.
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
} from "@pi-mcp-adapter/core/schemas";
import { z } from "zod";
import { OAuthClientOptionsShape } from "./oauth-client-options.js";
import { RequestHeadersCommandSchema } from "./request-headers-entry.js";

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
