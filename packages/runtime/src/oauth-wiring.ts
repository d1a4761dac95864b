/**
 * OAuth for the adapter runtime, in one place the shell hooks into: the
 * credential store from `oauthCredentialStore` (shared with cooperating
 * extensions through `pi-mcp-adapter/oauth`), a one-time import of legacy
 * `tokens.json` files, the logins behind `/mcp-auth` and the proxy actions
 * `auth-start` / `auth-complete`, and what each HTTP connection needs
 * (`authProvider`, and the DPoP fetch where configured).
 */

import { type ConfiguredServer, resolveOAuthClientSecret } from "@pi-mcp-adapter/config";
import { describeError, type ServerDefinition } from "@pi-mcp-adapter/core";
import {
  type CredentialStore,
  CredentialStoreSettingSchema,
  createCredentialStore,
  createDpopFetch,
  importLegacyTokens,
  type LegacyImportOutcome,
  loadOrCreateDpopKey,
  McpOAuthProvider,
  OAuthError,
  setDefaultCredentialStore,
} from "@pi-mcp-adapter/oauth";
import type { FetchLike } from "@pi-mcp-adapter/transport";
import {
  type AuthStartResult,
  authStartMessage,
  OAuthLogins,
  type OAuthServerEntry,
} from "./oauth-logins.js";

export interface OAuthSettings {
  oauthCredentialStore?: string;
  oauthClientName?: string;
  oauthDir?: string;
  autoAuth?: boolean;
}

export interface OAuthWiringOptions {
  servers: () => ConfiguredServer[];
  settings: OAuthSettings;
  env?: NodeJS.ProcessEnv;
  /** Overrides the store picked from the settings (tests). */
  store?: CredentialStore;
  fetch?: FetchLike;
  warn?: (message: string) => void;
  /**
   * With `autoAuth`, a connection that needs a login starts one by itself and
   * reports it here (show the URL to the user); without `autoAuth` it only
   * fails with "run /mcp-auth <server>".
   */
  onAutoAuth?: (result: AuthStartResult) => void;
}

export interface OAuthWiring {
  readonly store: CredentialStore;
  readonly logins: OAuthLogins;
  /** `autoAuth`: whether a 401 may start a login by itself (default false). */
  readonly autoAuth: boolean;
  readonly legacyImport: LegacyImportOutcome[];
  /** Names of the configured servers that may use OAuth (for `/mcp-auth` without a name). */
  serverNames(): string[];
  /**
   * For the transport's `authProvider` option: the provider of an OAuth
   * server, `undefined` for others. A `!command` client secret runs only
   * when the provider first needs it.
   */
  authProviderFor(definition: ServerDefinition): McpOAuthProvider | undefined;
  /** The DPoP-signing fetch for a server with `oauth.dpop`, else `undefined`. */
  fetchFor(definition: ServerDefinition): FetchLike | undefined;
  /** Extra connect options for `server`; empty for servers without OAuth. */
  connectOptionsFor(
    server: ConfiguredServer,
  ): Promise<{ authProvider?: McpOAuthProvider; fetch?: FetchLike }>;
  /** Handles `auth-start` / `auth-complete`; `undefined` for any other action. */
  proxyAction(
    action: string,
    server: string | undefined,
    args: Record<string, unknown> | undefined,
  ): Promise<string | undefined>;
  shutdown(): Promise<void>;
}

/** HTTP servers that may use OAuth: not switched off, and not using a static bearer token. */
export function usesOAuth(server: ConfiguredServer): boolean {
  if (server.transport !== "http" && server.transport !== "sse") return false;
  if (!server.url || server.auth === false || server.auth === "bearer" || server.oauth === false)
    return false;
  return !server.bearerToken && !server.bearerTokenEnv;
}

export async function createOAuthWiring(options: OAuthWiringOptions): Promise<OAuthWiring> {
  const env = options.env ?? process.env;
  const store = options.store ?? pickStore(options.settings, env);
  setDefaultCredentialStore(store);

  const entries = async (): Promise<OAuthServerEntry[]> =>
    Promise.all(
      options
        .servers()
        .filter(usesOAuth)
        .map(async (server): Promise<OAuthServerEntry> => {
          const oauth = server.oauth || undefined;
          return {
            name: server.name,
            url: server.url as string,
            clientName: oauth?.clientName ?? server.oauthClientName ?? options.settings.oauthClientName,
            clientId: oauth?.clientId,
            clientSecret: await resolveOAuthClientSecret(server, { env }),
            scope: oauth?.scope ?? oauth?.scopes?.join(" "),
            skipIssuerMetadataValidation: oauth?.skipIssuerMetadataValidation,
            callbackPort: oauth?.callbackPort,
            dpop: oauth?.dpop,
          };
        }),
    );
  const logins = new OAuthLogins({ store, servers: entries, fetch: options.fetch, warn: options.warn });

  const legacyDir = options.settings.oauthDir ?? env.MCP_OAUTH_DIR;
  const legacyImport = legacyDir
    ? await importLegacyTokens({
        dir: legacyDir,
        store,
        servers: options
          .servers()
          .filter(usesOAuth)
          .map((s) => ({ name: s.name, url: s.url as string })),
      })
    : [];

  const configured = (definition: ServerDefinition) => {
    const server = options.servers().find((s) => s.name === definition.name);
    return server && usesOAuth(server) ? server : undefined;
  };
  const connectionProvider = (server: ConfiguredServer) => {
    const oauth = server.oauth || undefined;
    return new McpOAuthProvider({
      server: server.name,
      url: server.url as string,
      store,
      clientName: oauth?.clientName ?? server.oauthClientName ?? options.settings.oauthClientName,
      clientId: oauth?.clientId,
      clientSecret: oauth?.clientSecret ? () => resolveOAuthClientSecret(server, { env }) : undefined,
      scope: oauth?.scope ?? oauth?.scopes?.join(" "),
      skipIssuerMetadataValidation: oauth?.skipIssuerMetadataValidation,
      warn: options.warn,
      onLoginNeeded: options.settings.autoAuth === true ? () => autoStart(server.name) : undefined,
    });
  };
  const autoStarting = new Set<string>();
  const autoStart = (name: string) => {
    if (logins.isPending(name) || autoStarting.has(name)) return;
    autoStarting.add(name);
    logins
      .start(name)
      .then(
        (result) => options.onAutoAuth?.(result),
        (error: unknown) =>
          options.warn?.(`OAuth login for "${name}" could not start: ${describeError(error)}`),
      )
      .finally(() => autoStarting.delete(name));
  };

  return {
    store,
    logins,
    authProviderFor: (definition) => {
      const server = configured(definition);
      return server ? connectionProvider(server) : undefined;
    },
    fetchFor: (definition) => {
      const server = configured(definition);
      if (!server || !(server.oauth || undefined)?.dpop) return undefined;
      const { credentials } = connectionProvider(server);
      return createDpopFetch({ key: () => loadOrCreateDpopKey(credentials), fetch: options.fetch });
    },
    autoAuth: options.settings.autoAuth === true,
    legacyImport,
    serverNames: () =>
      options
        .servers()
        .filter(usesOAuth)
        .map((s) => s.name),
    connectOptionsFor: async (server) => {
      if (!usesOAuth(server)) return {};
      const { authProvider, fetch } = await logins.connectionFor(server.name);
      return fetch ? { authProvider, fetch } : { authProvider };
    },
    proxyAction: async (action, server, args) => {
      if (action !== "auth-start" && action !== "auth-complete") return undefined;
      if (!server)
        throw new OAuthError("invalid_input", `${action} needs "server": the name of an HTTP MCP server`);
      if (action === "auth-start") return authStartMessage(await logins.start(server));
      const redirectUrl = typeof args?.redirectUrl === "string" ? args.redirectUrl : undefined;
      const code = typeof args?.code === "string" ? args.code : undefined;
      await logins.complete(server, { redirectUrl, code });
      return `Logged in to "${server}". Its tools can be called now.`;
    },
    shutdown: () => logins.shutdown(),
  };
}

function pickStore(settings: OAuthSettings, env: NodeJS.ProcessEnv): CredentialStore {
  const parsed = CredentialStoreSettingSchema.safeParse(settings.oauthCredentialStore ?? "keyring");
  if (!parsed.success) {
    throw new OAuthError(
      "invalid_input",
      `settings.oauthCredentialStore must be "keyring" or "encrypted-file" (or "memory"); got "${String(settings.oauthCredentialStore).slice(0, 40)}"`,
    );
  }
  return createCredentialStore({ kind: parsed.data, env });
}
