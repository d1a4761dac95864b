/**
 * The keys of a server entry, its `oauth` object and the settings, as plain
 * lists in their schemas' order (`server-entry-schema.ts`,
 * `settings-schema.ts`): unknown keys are reported, and a file validated
 * before is copied, without loading zod. `entry-keys.test.ts` keeps these
 * lists equal to the schemas' shapes.
 */

export const SERVER_ENTRY_KEYS = [
  "name",
  "type",
  "transport",
  "command",
  "args",
  "env",
  "cwd",
  "sandbox",
  "shared",
  "url",
  "headers",
  "caFile",
  "socket",
  "lifecycle",
  "idleTimeout",
  "requestTimeoutMs",
  "maxTotalTimeoutMs",
  "tasks",
  "taskTimeoutMs",
  "protocol",
  "toolPrefix",
  "directTools",
  "includeTools",
  "excludeTools",
  "approveTools",
  "searchKeywords",
  "description",
  "disabled",
  "debug",
  "inheritEnv",
  "literalEnv",
  "bearerToken",
  "bearerTokenEnv",
  "bearerTokenStore",
  "requestHeadersCommand",
  "secretTtlSec",
  "auth",
  "oauth",
  "oauthClientName",
] as const;

export const OAUTH_OPTION_KEYS = [
  "clientId",
  "clientSecret",
  "clientName",
  "scope",
  "scopes",
  "redirectUri",
  "callbackPort",
  "authorizationServerUrl",
  "skipIssuerMetadataValidation",
  "dpop",
  "grantType",
  "clientMetadataUrl",
  "authServerMetadataUrl",
  "authorizationParams",
  "clientUri",
  "logoUri",
] as const;

/** A server's `requestHeadersCommand` object. */
export const REQUEST_HEADERS_COMMAND_KEYS = ["command", "args", "env", "timeoutMs"] as const;

export const SETTING_KEYS = [
  "toolPrefix",
  "idleTimeout",
  "keepAliveRelistMinutes",
  "failureBackoffMs",
  "requestTimeoutMs",
  "maxTotalTimeoutMs",
  "shareServers",
  "tasks",
  "taskTimeoutMs",
  "showStatusIcon",
  "mcpFooterStatus",
  "toolResultRendering",
  "collapsedResultLines",
  "notifyOnStartupConnect",
  "hostConfigDiscovery",
  "agentPluginPaths",
  "approveTools",
  "pinTools",
  "oauthDir",
  "oauthCredentialStore",
  "oauthClientName",
  "directTools",
  "freezeDirectTools",
  "deferWithMissingMetadata",
  "strictDirectToolArguments",
  "directToolResultDetails",
  "namespaceProxyTools",
  "scriptMode",
  "disableProxyTool",
  "autoAuth",
  "sampling",
  "samplingAutoApprove",
  "elicitation",
  "outputGuard",
  "spillMaxAgeDays",
  "trace",
  "captureStats",
  "toonEncode",
  "projectServers",
  "ancestorConfigRoots",
] as const;

/** The `trace` setting's object. */
export const TRACE_SETTING_KEYS = ["enabled", "file", "maxBytes", "maxEvents"] as const;

/** The `captureStats` setting's object form. */
export const CAPTURE_STATS_KEYS = ["file"] as const;

/** A stdio server's `sandbox` object and its parts (core's `SandboxSettingSchema`). */
export const SANDBOX_KEYS = ["network", "filesystem"] as const;
export const SANDBOX_NETWORK_KEYS = ["allow"] as const;
export const SANDBOX_FILESYSTEM_KEYS = ["allowWrite", "denyRead"] as const;

/** The `outputGuard` setting's object form (core's `OutputGuardLimitsSchema`). */
export const OUTPUT_GUARD_LIMIT_KEYS = ["maxBytes", "maxLines", "detailsMaxBytes"] as const;
