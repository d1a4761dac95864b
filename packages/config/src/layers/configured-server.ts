import type { Provenance, ServerDefinition } from "@pi-mcp-adapter/core";
import type { RequestHeadersCommand } from "../secrets/request-headers-command.js";
import type { OAuthOptions } from "./server-entry.js";
import type { SourceScope } from "./source-scope.js";

/**
 * A core `ServerDefinition` plus the options only config and the shell use.
 * It is assignable to `ServerDefinition`, so transport and catalog take it
 * as is. Secret (`!command`) and `${VAR}` values are still unresolved here;
 * `prepareConnection` resolves them when connecting.
 */
export interface ConfiguredServer extends ServerDefinition {
  /** Scope of the layer that defined the endpoint. */
  scope: SourceScope;
  /** Every layer that contributed, lowest precedence first (`source` is the defining one). */
  layers: Provenance[];
  /** `false` passes only `env` (and a small safe set such as PATH) to a stdio server. */
  inheritEnv?: boolean;
  /** Environment values passed verbatim: no `${VAR}` expansion, no `!command`. */
  literalEnv?: Record<string, string>;
  /** Sent as `Authorization: Bearer …`; may be a `!command` secret. */
  bearerToken?: string;
  /** Name of an environment variable holding the bearer token. */
  bearerTokenEnv?: string;
  /** `true`: the bearer token is the one `pi-mcp-adapter token set <server>` stored. */
  bearerTokenStore?: true;
  /** A program computing headers for each HTTP request; `${VAR}` in it expands when connecting. */
  requestHeadersCommand?: RequestHeadersCommand;
  /** Seconds a `!command` header or bearer token is used before the command runs again (default 300). */
  secretTtlSec?: number;
  auth?: false | "oauth" | "bearer";
  oauth?: false | OAuthOptions;
  oauthClientName?: string;
  /** What the server is for (the user's words); the proxy tool's server roster shows its head. */
  description?: string;
  /** `directTools: "search"`: direct tools registered inactive until search activates them. */
  directToolsExposure?: "search";
  /** Unknown keys from the config, kept verbatim (each was reported as a warning). */
  extra?: Record<string, unknown>;
}
