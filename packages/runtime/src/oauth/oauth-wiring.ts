/**
 * OAuth for the adapter runtime, in one place the shell hooks into: the
 * credential store from `oauthCredentialStore` (shared with cooperating
 * extensions through `pi-mcp-adapter/oauth`), a one-time import of legacy
 * `tokens.json` files, the logins behind `/mcp-auth` and the proxy actions
 * `auth-start` / `auth-complete`, and what each HTTP connection needs
 * (`authProvider`, and the DPoP fetch where configured). Connections and
 * logins get their OAuth from the same server entry (`createServerOAuth`).
 */

import { type ConfiguredServer, resolveOAuthClientSecret } from "@pi-mcp-adapter/config";
import { describeError, type ServerDefinition } from "@pi-mcp-adapter/core";
import {
  type AuthStartResult,
  authStartMessage,
  type CredentialStore,
  CredentialStoreSettingSchema,
  createCredentialStore,
  createServerOAuth,
  importLegacyTokens,
  isStoreFailure,
  type McpOAuthProvider,
  OAuthChallenges,
  OAuthError,
  OAuthLogins,
  type OAuthServerEntry,
  recordDefaultCredentialStore,
  type ServerOAuthContext,
  setDefaultCredentialStore,
} from "@pi-mcp-adapter/oauth";
import type { FetchLike } from "@pi-mcp-adapter/transport";

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
  /** Names of the configured servers that may use OAuth (for `/mcp-auth` without a name). */
  serverNames(): string[];
  /**
   * For the transport's `authProvider` option: the provider of an OAuth
   * server, `undefined` for others. A `!command` client secret runs only
   * when the provider first needs it.
   */
  authProviderFor(definition: ServerDefinition): McpOAuthProvider | undefined;
  /**
   * The fetch for an OAuth server: DPoP-signing with `oauth.dpop`, else the
   * wiring's `fetch` — noting the server's 401/403 challenges, so the next
   * login asks for the scope the server asked for.
   */
  fetchFor(definition: ServerDefinition): FetchLike | undefined;
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
  // Every copy of the oauth package in this process (a cooperating extension may bundle its own)
  // uses this store; other processes read its kind from the agent dir.
  setDefaultCredentialStore(store);
  if (!options.store) {
    await recordDefaultCredentialStore(store.kind, env).catch((error: unknown) =>
      options.warn?.(
        `cannot record the credential store choice for other extensions: ${describeError(error)}`,
      ),
    );
  }

  // A `!command` client secret runs only when a provider first needs it.
  const entryOf = (server: ConfiguredServer): OAuthServerEntry => {
    const oauth = server.oauth || undefined;
    return {
      name: server.name,
      url: server.url as string,
      clientName: oauth?.clientName ?? server.oauthClientName ?? options.settings.oauthClientName,
      clientId: oauth?.clientId,
      clientSecret: oauth?.clientSecret ? () => resolveOAuthClientSecret(server, { env }) : undefined,
      scope: oauth?.scope ?? oauth?.scopes?.join(" "),
      skipIssuerMetadataValidation: oauth?.skipIssuerMetadataValidation,
      callbackPort: oauth?.callbackPort,
      redirectUri: oauth?.redirectUri,
      authorizationServerUrl: oauth?.authorizationServerUrl,
      dpop: oauth?.dpop,
    };
  };
  const oauthServers = () => options.servers().filter(usesOAuth);
  // Connections note each server's 401/403 challenge; `/mcp-auth`, `auth-start` and autoAuth log in for it.
  const challenges = new OAuthChallenges();
  const context: ServerOAuthContext = { store, fetch: options.fetch, warn: options.warn, challenges };
  const logins = new OAuthLogins({ ...context, servers: () => oauthServers().map(entryOf) });

  const legacyDir = options.settings.oauthDir ?? env.MCP_OAUTH_DIR;
  if (legacyDir) {
    try {
      await importLegacyTokens({
        dir: legacyDir,
        store,
        servers: oauthServers().map((s) => ({ name: s.name, url: s.url as string })),
      });
    } catch (error) {
      // A store that cannot be used blocks only servers needing a login, not OAuth as a whole.
      if (!isStoreFailure(error)) throw error;
      options.warn?.(`legacy tokens in ${legacyDir} were not imported: ${error.message}`);
    }
  }

  const configured = (definition: ServerDefinition) => {
    const server = oauthServers().find((s) => s.name === definition.name);
    return server ? entryOf(server) : undefined;
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
      const entry = configured(definition);
      if (!entry) return undefined;
      const onLoginNeeded = options.settings.autoAuth === true ? () => autoStart(entry.name) : undefined;
      return createServerOAuth(entry, context, { onLoginNeeded }).provider;
    },
    fetchFor: (definition) => {
      const entry = configured(definition);
      return entry ? createServerOAuth(entry, context).fetch : undefined;
    },
    serverNames: () => oauthServers().map((s) => s.name),
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
