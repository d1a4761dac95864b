/**
 * One interactive login: starts the loopback listener, runs the SDK flow up
 * to the authorization URL, then finishes on whichever comes first — the
 * browser reaching the listener, or the user pasting the callback address or
 * code (`complete`). Used by `/mcp-auth` and by `auth-start`/`auth-complete`.
 * The credential store is checked first, so a keyring that cannot be used
 * fails here, before the user is sent to a browser for nothing.
 */
import type { discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { OAuthError } from "../errors.js";
import { ServerCredentials } from "../stores/server-credentials.js";
import { checkCredentialStore } from "../stores/store-problems.js";
import { loadSdkAuth } from "../tokens/sdk-auth.js";
import { type IssuerExpectation, readCallbackParams, readPastedCallback } from "./callback-input.js";
import { type LoopbackListener, startLoopbackListener } from "./loopback-listener.js";
import { McpOAuthProvider, type McpOAuthProviderOptions } from "./mcp-oauth-provider.js";

export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface OAuthLoginOptions
  extends Omit<McpOAuthProviderOptions, "redirectUrl" | "onAuthorizationUrl" | "skipRefresh"> {
  /** Loopback listener port; 0 (default) picks a free one per login. */
  callbackPort?: number;
  /** Skip the listener and use this redirect URL (paste-only hosts). */
  redirectUrl?: string;
  /**
   * A fixed callback URL (`oauth.redirectUri`), registered as is. A loopback
   * one with a port (`http://127.0.0.1:8765/cb` or `localhost`) is
   * listened on at that port and path; any other is paste-only.
   */
  fixedRedirectUrl?: string;
  fetch?: FetchLike;
  /** How long a pending login waits for its callback. */
  timeoutMs?: number;
  /**
   * From the server's 401/403 `WWW-Authenticate` challenge, when a request
   * triggered the login (`OAuthChallenges` keeps the latest per server). Its
   * scope is asked for together with what was already granted (SEP-2350),
   * and a refresh cannot answer it when that is more than the grant.
   */
  challenge?: { scope?: string; resourceMetadataUrl?: string | URL };
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it; default true. */
  offlineAccess?: boolean;
}

export interface OAuthLogin {
  /** `authorized` when stored or refreshed tokens sufficed and no browser step is needed. */
  readonly status: "authorized" | "pending";
  /** Open this in a browser (pending logins only). */
  readonly authorizationUrl: URL | undefined;
  readonly redirectUrl: string | undefined;
  /** Settles when the login finishes, fails, times out or is cancelled. */
  readonly done: Promise<void>;
  /** Finishes with a pasted callback address, query string or bare code. */
  complete(pasted: string): Promise<void>;
  cancel(): Promise<void>;
}

export async function startOAuthLogin(options: OAuthLoginOptions): Promise<OAuthLogin> {
  let finished: Promise<void> | undefined;
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  done.catch(() => {}); // callers may only await `complete`

  let listener: LoopbackListener | undefined;
  let timer: NodeJS.Timeout | undefined;
  // Not awaited: the listener first answers the browser request that finished the login.
  const cleanup = async () => {
    clearTimeout(timer);
    void listener?.close();
  };

  const finish = (code: string): Promise<void> => {
    finished ??= loadSdkAuth()
      .then(({ auth }) =>
        auth(provider, {
          serverUrl: provider.credentials.url,
          authorizationCode: code,
          fetchFn: options.fetch,
        }),
      )
      .then(async () => {
        await cleanup();
        settle.resolve();
      })
      .catch(async (error: unknown) => {
        await cleanup();
        const wrapped =
          error instanceof OAuthError
            ? error
            : new OAuthError(
                "authorization_failed",
                `OAuth login for "${options.server}" failed: ${describe(error)}`,
                {
                  cause: error,
                },
              );
        settle.reject(wrapped);
        throw wrapped;
      });
    return finished;
  };

  try {
    await checkCredentialStore(options.store);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    throw new OAuthError(error.code, `Cannot log in to "${options.server}": ${error.message}`, {
      cause: error,
    });
  }

  const fixed = options.fixedRedirectUrl ? fixedRedirect(options.fixedRedirectUrl) : undefined;
  if (!options.redirectUrl && (!fixed || fixed.listen)) {
    listener = await startLoopbackListener({
      port: fixed?.listen?.port ?? options.callbackPort ?? 0,
      path: fixed?.listen?.path,
      onCallback: async (params) =>
        finish(readCallbackParams(params, provider.expectedState, await issuerExpectation()).code),
    });
  }
  let authorizationUrl: URL | undefined;
  const issuerExpectation = async (): Promise<IssuerExpectation | undefined> => {
    const discovery = await provider.discoveryState();
    if (!discovery) return undefined;
    const metadata = discovery.authorizationServerMetadata as
      | { issuer?: string; authorization_response_iss_parameter_supported?: boolean }
      | undefined;
    return {
      issuer: metadata?.issuer ?? discovery.authorizationServerUrl,
      required: metadata?.authorization_response_iss_parameter_supported === true,
    };
  };
  let provider!: McpOAuthProvider;
  let result: "AUTHORIZED" | "REDIRECT";
  try {
    const resourceMetadataUrl = options.challenge?.resourceMetadataUrl
      ? new URL(String(options.challenge.resourceMetadataUrl))
      : undefined;
    const granted = await grantedScope(options);
    const stepUp = stepUpScope(granted, options.challenge?.scope);
    provider = new McpOAuthProvider({
      ...options,
      redirectUrl: options.redirectUrl ?? fixed?.url ?? listener?.redirectUrl,
      onAuthorizationUrl: (url) => {
        authorizationUrl = url;
      },
      // Refreshing never widens a grant: a step-up goes to the authorization server.
      skipRefresh: stepUp !== undefined && !coversScope(granted, stepUp),
    });
    const scope = await chooseScope(options, resourceMetadataUrl, stepUp);
    const { auth } = await loadSdkAuth();
    result = await auth(provider, {
      serverUrl: provider.credentials.url,
      fetchFn: options.fetch,
      ...(scope ? { scope } : {}),
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    });
  } catch (error) {
    await cleanup();
    if (error instanceof OAuthError) throw error;
    throw new OAuthError(
      "authorization_failed",
      `OAuth login for "${options.server}" failed: ${describe(error)}`,
      {
        cause: error,
      },
    );
  }
  if (result === "AUTHORIZED") {
    await cleanup();
    settle.resolve();
  } else {
    timer = setTimeout(() => {
      if (finished) return;
      void cleanup();
      settle.reject(
        new OAuthError(
          "callback_timeout",
          `OAuth login for "${options.server}" timed out waiting for the callback`,
        ),
      );
    }, options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS);
    timer.unref();
  }

  return {
    status: result === "AUTHORIZED" ? "authorized" : "pending",
    authorizationUrl,
    redirectUrl: provider.redirectUrl,
    done,
    complete: async (pasted) => {
      if (result === "AUTHORIZED") return;
      await finish(readPastedCallback(pasted, provider.expectedState, await issuerExpectation()).code);
    },
    cancel: async () => {
      await cleanup();
      settle.reject(new OAuthError("callback_failed", `OAuth login for "${options.server}" was cancelled`));
    },
  };
}

/** The scope of the stored tokens: what the authorization server granted last time. */
async function grantedScope(options: OAuthLoginOptions): Promise<string | undefined> {
  const stored = await new ServerCredentials(options.store, options.server, options.url).load();
  return stored?.tokens?.scope;
}

/**
 * SEP-2350: a challenge's scope is added to what was granted, never asked for
 * alone — a login that drops granted scopes makes the next call fail instead.
 */
function stepUpScope(granted: string | undefined, challenged: string | undefined): string | undefined {
  if (!challenged) return undefined;
  return [...new Set([...scopeTokens(granted), ...scopeTokens(challenged)])].join(" ");
}

function coversScope(granted: string | undefined, wanted: string): boolean {
  const have = new Set(scopeTokens(granted));
  return scopeTokens(wanted).every((token) => have.has(token));
}

const scopeTokens = (scope: string | undefined) => (scope ?? "").split(/\s+/).filter(Boolean);

/**
 * The scope to request: the challenge's (with what was granted, see
 * `stepUpScope`), else the resource's `scopes_supported`, else the configured
 * one — plus `offline_access` when the authorization server lists it (so a
 * refresh token is issued) and a scope is requested at all.
 */
async function chooseScope(
  options: OAuthLoginOptions,
  resourceMetadataUrl: URL | undefined,
  explicit: string | undefined,
): Promise<string | undefined> {
  if (explicit && options.offlineAccess === false) return explicit;
  let info: Awaited<ReturnType<typeof discoverOAuthServerInfo>> | undefined;
  try {
    const { discoverOAuthServerInfo } = await loadSdkAuth();
    info = await discoverOAuthServerInfo(String(options.url), {
      resourceMetadataUrl,
      fetchFn: options.fetch,
    });
  } catch {
    return explicit; // auth() repeats discovery and reports its failure properly
  }
  const base = explicit ?? info.resourceMetadata?.scopes_supported?.join(" ") ?? options.scope;
  if (!base || options.offlineAccess === false) return base;
  const offered = info.authorizationServerMetadata?.scopes_supported ?? [];
  const scopes = scopeTokens(base);
  if (offered.includes("offline_access") && !scopes.includes("offline_access")) scopes.push("offline_access");
  return scopes.join(" ");
}

/** Where to listen for a fixed redirect URL: only a loopback http one with an explicit port. */
function fixedRedirect(value: string): { url: string; listen?: { port: number; path: string } } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError(
      "invalid_input",
      `oauth.redirectUri must be an absolute URL, got "${value.slice(0, 80)}"`,
    );
  }
  // The listener binds 127.0.0.1, which is also where browsers send `localhost`.
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost";
  // Registered exactly as configured: a pre-registered client's redirect URI must match it verbatim.
  if (url.protocol !== "http:" || !loopback || !url.port) return { url: value };
  return { url: value, listen: { port: Number(url.port), path: url.pathname } };
}

/** Error text without anything that looks like a token or code value. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/(code|token|secret|verifier|state)=([^&\s]+)/gi, "$1=…").slice(0, 300);
}
