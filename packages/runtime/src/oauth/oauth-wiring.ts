/**
 * OAuth for the adapter runtime, in one place the shell hooks into: the
 * credential store from `oauthCredentialStore` (shared with cooperating
 * extensions through `pi-mcp-adapter/oauth`), one-time imports of legacy
 * `tokens.json` files and of what pi-mcp-adapter 2.x saved (its keyring),
 * the logins behind `/mcp-auth` and the proxy actions
 * `auth-start` / `auth-complete`, and what each HTTP connection needs
 * (`authProvider`, and the DPoP fetch where configured). Connections and
 * logins get their OAuth from the same server entry (`createServerOAuth`).
 *
 * A session start loads only the store part of the oauth package; its login
 * code loads when a login, an OAuth server's connection or `oauthDir`'s
 * import first needs it.
 */

import { type ConfiguredServer, prepareConnection, resolveOAuthClientSecret } from "@pi-mcp-adapter/config";
import { describeError, type ServerDefinition } from "@pi-mcp-adapter/core";
import type {
  AuthStartResult,
  McpOAuthProvider,
  OAuthLogins,
  OAuthServerEntry,
  ServerOAuthContext,
} from "@pi-mcp-adapter/oauth";
import {
  type CredentialStore,
  createCredentialStore,
  isCredentialStoreSetting,
  isStoreFailure,
  OAuthError,
  readStoredBearerToken,
  recordDefaultCredentialStore,
  setDefaultCredentialStore,
} from "@pi-mcp-adapter/oauth/store";
import type { FetchLike } from "@pi-mcp-adapter/transport";
import { importV2Credentials } from "./v2-credentials-import.js";

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
  /**
   * A login `auth-start` or `autoAuth` started waits for the user's browser:
   * the host opens `url` where it can (Pi with a display, the CLI). Must not throw.
   */
  openBrowser?: (url: string) => void;
  /**
   * A login `auth-start` or `autoAuth` started finished by itself (the browser
   * reached the callback; not through `auth-complete`): the host tells the agent.
   */
  onBackgroundLogin?: (server: string) => void;
}

export interface OAuthWiring {
  readonly store: CredentialStore;
  /** The token `pi-mcp-adapter token set` stored for a `bearerTokenStore` server (see `prepareConnection`). */
  readStoredBearerToken(server: string, url: string): Promise<string>;
  /** The session's logins (the first call loads the oauth package's login code). */
  logins(): Promise<OAuthLogins>;
  /** Names of the configured servers that may use OAuth (for `/mcp-auth` without a name). */
  serverNames(): string[];
  /**
   * What a connection to `definition` needs for OAuth: the provider (for the
   * transport's `authProvider` option; a `!command` client secret runs only
   * when it first needs it) and the fetch — DPoP-signing with `oauth.dpop`,
   * else the wiring's `fetch` — noting the server's 401/403 challenges, so
   * the next login asks for the scope the server asked for. Nothing for a
   * server that does not use OAuth (and nothing is loaded for it).
   */
  connectionAuth(
    definition: ServerDefinition,
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
  return !server.bearerToken && !server.bearerTokenEnv && !server.bearerTokenStore;
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
      grantType: oauth?.grantType,
      clientMetadataUrl: oauth?.clientMetadataUrl,
      authServerMetadataUrl: oauth?.authServerMetadataUrl,
      authorizationParams: oauth?.authorizationParams,
      clientUri: oauth?.clientUri,
      logoUri: oauth?.logoUri,
      // Its configured headers go on its OAuth requests too (e.g. Cloudflare Access in front of them).
      requestHeaders: server.headers
        ? async () => (await prepareConnection(server, { env })).definition.headers ?? {}
        : undefined,
    };
  };
  const oauthServers = () => options.servers().filter(usesOAuth);
  // The login code, loaded once on first need: connections note each server's 401/403 challenge;
  // `/mcp-auth`, `auth-start` and autoAuth log in for it.
  let loading: Promise<LoginParts> | undefined;
  const load = () =>
    (loading ??= import("@pi-mcp-adapter/oauth").then((oauth) => {
      const context: ServerOAuthContext = {
        store,
        fetch: options.fetch,
        warn: options.warn,
        challenges: new oauth.OAuthChallenges(),
      };
      const logins = new oauth.OAuthLogins({ ...context, servers: () => oauthServers().map(entryOf) });
      return { oauth, context, logins };
    }));

  const legacyDir = options.settings.oauthDir ?? env.MCP_OAUTH_DIR;
  if (legacyDir) {
    const { importLegacyTokens } = (await load()).oauth;
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

  await importV2Credentials({
    oauthServers: oauthServers(),
    servers: options.servers(),
    store,
    env,
    load: async () => (await load()).oauth,
    warn: options.warn,
  });

  const configured = (definition: ServerDefinition) => {
    const server = oauthServers().find((s) => s.name === definition.name);
    return server ? entryOf(server) : undefined;
  };
  const autoStarting = new Set<string>();
  /** Servers whose login `auth-complete` is finishing (so it is not told as a background login). */
  const completing = new Set<string>();
  const follow = (started: AuthStartResult) => {
    if (started.status !== "pending") return;
    options.openBrowser?.(started.authorizationUrl);
    started.done.then(
      () => {
        if (!completing.delete(started.server)) options.onBackgroundLogin?.(started.server);
      },
      () => completing.delete(started.server),
    );
  };
  const autoStart = (logins: OAuthLogins, name: string) => {
    if (logins.isPending(name) || autoStarting.has(name)) return;
    autoStarting.add(name);
    logins
      .start(name)
      .then(
        (result) => {
          options.onAutoAuth?.(result);
          follow(result);
        },
        (error: unknown) =>
          options.warn?.(`OAuth login for "${name}" could not start: ${describeError(error)}`),
      )
      .finally(() => autoStarting.delete(name));
  };

  return {
    store,
    readStoredBearerToken: (server, url) => readStoredBearerToken(store, server, url),
    logins: async () => (await load()).logins,
    connectionAuth: async (definition) => {
      const entry = configured(definition);
      if (!entry) return {};
      const { oauth, context, logins } = await load();
      const onLoginNeeded =
        options.settings.autoAuth === true ? () => autoStart(logins, entry.name) : undefined;
      return {
        authProvider: oauth.createServerOAuth(entry, context, { onLoginNeeded }).provider,
        fetch: oauth.createServerOAuth(entry, context).fetch,
      };
    },
    serverNames: () => oauthServers().map((s) => s.name),
    proxyAction: async (action, server, args) => {
      if (action !== "auth-start" && action !== "auth-complete") return undefined;
      if (!server)
        throw new OAuthError("invalid_input", `${action} needs "server": the name of an HTTP MCP server`);
      const { oauth, logins } = await load();
      if (action === "auth-start") {
        const started = await logins.start(server);
        follow(started);
        return oauth.authStartMessage(started);
      }
      const redirectUrl = typeof args?.redirectUrl === "string" ? args.redirectUrl : undefined;
      const code = typeof args?.code === "string" ? args.code : undefined;
      completing.add(server);
      try {
        await logins.complete(server, { redirectUrl, code });
      } catch (error) {
        completing.delete(server);
        throw error;
      }
      return `Logged in to "${server}". Its tools can be called now.`;
    },
    // Nothing to end when no login code was loaded.
    shutdown: async () => {
      if (loading) await (await loading).logins.shutdown();
    },
  };
}

/** The oauth package's login code and the session's login state built from it. */
interface LoginParts {
  oauth: typeof import("@pi-mcp-adapter/oauth");
  context: ServerOAuthContext;
  logins: OAuthLogins;
}

function pickStore(settings: OAuthSettings, env: NodeJS.ProcessEnv): CredentialStore {
  const kind = settings.oauthCredentialStore ?? "keyring";
  if (!isCredentialStoreSetting(kind)) {
    throw new OAuthError(
      "invalid_input",
      `settings.oauthCredentialStore must be "keyring" or "encrypted-file" (or "memory"); got "${String(settings.oauthCredentialStore).slice(0, 40)}"`,
    );
  }
  return createCredentialStore({ kind, env });
}
