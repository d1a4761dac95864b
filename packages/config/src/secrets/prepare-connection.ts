/**
 * What a transport needs just before it connects: `${VAR}` expanded,
 * `!command` secrets run, `bearerToken` turned into a header, `literalEnv`
 * added verbatim, and the base environment a stdio child inherits
 * (`inheritEnv: false` keeps only a small safe set). Call it from the
 * transport's connect hook; never during loading, merging or display.
 */
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { ConfigError } from "../errors.js";
import type { ConfiguredServer } from "../layers/configured-server.js";
import { interpolate } from "./interpolate.js";
import { RefreshingSecret } from "./refreshing-secret.js";
import { requestHeadersWrapper } from "./request-headers-command.js";
import { isSecretCommand, runSecretCommand, type SecretCommandRunner } from "./secret-command.js";
import { type SecretFetch, type SecretHeader, SecretHeaders } from "./secret-headers.js";

/** Variables a stdio server still gets with `inheritEnv: false`. */
export const SAFE_ENV_KEYS = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TEMP",
  "TMP",
  "TZ",
  "SystemRoot",
  "SYSTEMROOT",
  "windir",
  "ComSpec",
  "PATHEXT",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "ProgramFiles",
  "ProgramData",
] as const;

export interface PrepareConnectionOptions {
  /** Variables for `${VAR}` and the inherited environment; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Runs `!command` secrets; default spawns a shell. */
  runSecret?: SecretCommandRunner;
  /** Clock for when a `!command` header value is re-run (tests). */
  now?: () => number;
  /** Hears a `!command` header whose re-run failed (the message never holds the value). */
  warn?: (message: string) => void;
  /** The token `bearerTokenStore` names (throws, saying what to do, when none is stored for `url`). */
  readStoredBearerToken?: (server: string, url: string) => Promise<string>;
}

export interface PreparedConnection {
  /** The definition with every value resolved. Never log or cache it. */
  definition: ServerDefinition;
  /** Environment a stdio child starts from (before `definition.env`). */
  baseEnv: Record<string, string>;
  /**
   * HTTP headers from `!command` secrets, kept fresh for the connection's
   * life: give the transport `secretHeaders.wrapFetch(fetch)`. Their first
   * values are in `definition.headers` too.
   */
  secretHeaders?: SecretHeaders;
  /** `requestHeadersCommand`: wrap the transport's fetch (innermost, so its headers are set last). */
  requestHeaders?: (fetch?: SecretFetch) => SecretFetch;
}

export async function prepareConnection(
  server: ConfiguredServer | ServerDefinition,
  options: PrepareConnectionOptions = {},
): Promise<PreparedConnection> {
  const env = options.env ?? process.env;
  const runSecret = options.runSecret ?? runSecretCommand;
  const configured = server as Partial<ConfiguredServer> & ServerDefinition;
  const name = server.name;

  const { expand, secret } = valueResolvers(name, server.cwd, env, runSecret);
  const definition: ServerDefinition = { ...server };
  for (const key of [
    "scope",
    "layers",
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
    "directToolsExposure",
    "description",
    "extra",
  ]) {
    delete (definition as unknown as Record<string, unknown>)[key];
  }
  if (server.url !== undefined) definition.url = expand(server.url, "url");
  if (server.args) definition.args = server.args.map((arg, i) => expand(arg, `args.${i}`));
  if (server.env || configured.literalEnv) {
    const resolved: Record<string, string> = {};
    for (const [key, value] of Object.entries(server.env ?? {}))
      resolved[key] = await secret(value, `env.${key}`);
    Object.assign(resolved, configured.literalEnv);
    definition.env = resolved;
  }
  // A `!command` header value is re-run while the connection lives (see refreshing-secret.ts).
  const refreshing: SecretHeader[] = [];
  const header = async (name: string, value: string, field: string, format?: (v: string) => string) => {
    const initial = await secret(value, field);
    if (isSecretCommand(value)) {
      const run = () => secret(value, field);
      const ttlMs = configured.secretTtlSec === undefined ? undefined : configured.secretTtlSec * 1000;
      const refreshingSecret = new RefreshingSecret({
        run,
        initial,
        ttlMs,
        now: options.now,
        warn: options.warn,
      });
      refreshing.push({ name, secret: refreshingSecret, format });
    }
    return format ? format(initial) : initial;
  };
  if (server.headers) {
    const resolved: Record<string, string> = {};
    for (const [key, value] of Object.entries(server.headers))
      resolved[key] = await header(key, value, `headers.${key}`);
    definition.headers = resolved;
  }
  let token: string | undefined;
  const hasAuthorization = Object.keys(definition.headers ?? {}).some(
    (h) => h.toLowerCase() === "authorization",
  );
  if (configured.bearerToken !== undefined) {
    // An explicit Authorization header wins; the command then does not run at all.
    if (!hasAuthorization) {
      const bearer = (v: string) => `Bearer ${v}`;
      definition.headers = {
        ...definition.headers,
        Authorization: await header("Authorization", configured.bearerToken, "bearerToken", bearer),
      };
    }
  } else if (configured.bearerTokenEnv !== undefined) {
    token = env[configured.bearerTokenEnv];
    if (token === undefined) {
      throw new ConfigError(
        "missing_variable",
        `MCP server "${name}": bearerTokenEnv names ${configured.bearerTokenEnv}, which is not set in the environment`,
      );
    }
  } else if (configured.bearerTokenStore && !hasAuthorization) {
    if (!options.readStoredBearerToken || definition.url === undefined) {
      throw new ConfigError(
        "secret_failed",
        `MCP server "${name}": bearerTokenStore needs the credential store`,
      );
    }
    token = await options.readStoredBearerToken(name, definition.url);
  }
  if (token !== undefined && !hasAuthorization) {
    definition.headers = { ...definition.headers, Authorization: `Bearer ${token}` };
  }

  const baseEnv: Record<string, string> = {};
  const inherit = configured.inheritEnv !== false;
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (inherit || (SAFE_ENV_KEYS as readonly string[]).includes(key)) baseEnv[key] = value;
  }
  const command = configured.requestHeadersCommand;
  return {
    definition,
    baseEnv,
    ...(refreshing.length ? { secretHeaders: new SecretHeaders(refreshing) } : {}),
    ...(command ? { requestHeaders: requestHeadersWrapper(name, command, expand, env, server.cwd) } : {}),
  };
}

/** Resolves `oauth.clientSecret` when authenticating (it may be a `!command` or use `${VAR}`). */
export async function resolveOAuthClientSecret(
  server: ConfiguredServer,
  options: PrepareConnectionOptions = {},
): Promise<string | undefined> {
  const value = server.oauth ? server.oauth.clientSecret : undefined;
  if (value === undefined) return undefined;
  const env = options.env ?? process.env;
  return valueResolvers(server.name, server.cwd, env, options.runSecret ?? runSecretCommand).secret(
    value,
    "oauth.clientSecret",
  );
}

function valueResolvers(
  name: string,
  cwd: string | undefined,
  env: Record<string, string | undefined>,
  runSecret: SecretCommandRunner,
) {
  const expand = (value: string, field: string): string => {
    const result = interpolate(value, env);
    if ("missing" in result) {
      throw new ConfigError(
        "missing_variable",
        `MCP server "${name}": ${field} uses \${${result.missing}}, which is not set in the environment`,
      );
    }
    return result.value;
  };
  const secret = async (value: string, field: string): Promise<string> => {
    if (!isSecretCommand(value)) return expand(value, field);
    try {
      return await runSecret(value.slice(1), { cwd: cwd, env: env as NodeJS.ProcessEnv });
    } catch (error) {
      // The reason comes from our runner and never carries the command's output.
      throw new ConfigError(
        "secret_failed",
        `MCP server "${name}": the secret command for ${field} ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  };

  return { expand, secret };
}
