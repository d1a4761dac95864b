/**
 * The SDK `OAuthClientProvider` for one configured server. Discovery,
 * registration, PKCE S256 and token requests are the SDK's `auth()`; this
 * class supplies what it stores and decides: URL-bound credentials in a
 * `CredentialStore`, the client identity (dynamic registration with
 * `oauthClientName`, a metadata-document URL, or a pre-registered client),
 * the `state` value, and the issuer echo check on discovered metadata.
 *
 * PKCE verifiers and `state` live only in this object's memory.
 *
 * Discovery results are stored (the token API refreshes and logout revokes
 * with them) but handed back to the SDK only to finish a login this object
 * started: every other flow — a 401, a refresh, a new login — discovers
 * afresh, so a resource that moved to another authorization server is
 * noticed, and the client registers there instead of reusing the old one's
 * credentials (SEP-2352).
 *
 * A connection provider (no `onAuthorizationUrl`) reads the store leniently:
 * a store that cannot be used counts as "nothing stored", so a server that
 * needs no login still connects, and a server that answers 401 fails with
 * `needs-auth` naming the store problem and its fix.
 */
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { OAuthError } from "../errors.js";
import type { CredentialStore } from "../stores/credential-store.js";
import { ServerCredentials, type StoredCredentials } from "../stores/server-credentials.js";
import { tolerateStoreFailure } from "../stores/store-problems.js";
import type { MachineGrant } from "../tokens/machine-grants.js";
import { isSupersededAnswer, refusedRefreshToken } from "../tokens/refresh-coordinator.js";
import { withAuthorizationParams } from "./authorization-params.js";
import { loadConfiguredMetadata } from "./configured-metadata.js";
import { checkIssuerEcho, issuersMatch } from "./issuer-check.js";
import { loginNeededError } from "./login-needed.js";

export const DEFAULT_CLIENT_NAME = "pi-mcp-adapter";
const CONNECTION_REDIRECT_URL = "http://127.0.0.1/callback";

export type TokenEndpointAuthMethod =
  | "none"
  | "client_secret_basic"
  | "client_secret_post"
  | "private_key_jwt";

export interface McpOAuthProviderOptions {
  /** Configured server name: the credential key. */
  server: string;
  /** The MCP server URL the credentials are bound to. */
  url: string | URL;
  store: CredentialStore;
  /** Where the authorization server sends the browser back; undefined means a non-interactive grant. */
  redirectUrl?: string;
  /** `client_name` for dynamic registration (`oauthClientName`). */
  clientName?: string;
  /** Pre-registered client (the secret already resolved from any `!command`). */
  clientId?: string;
  /** The secret, or a function resolving it when first needed (a `!command` runs only at auth time). */
  clientSecret?: string | (() => Promise<string | undefined>);
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** A client ID metadata document URL (HTTPS), used when the server supports it. */
  clientMetadataUrl?: string;
  /** From 2.x: RFC 7591 links, authorization URL extras, a metadata document (read with `fetch`). */
  clientUri?: string;
  logoUri?: string;
  authorizationParams?: Record<string, string>;
  authServerMetadataUrl?: string;
  fetch?: FetchLike;
  /** Fallback scope when neither the server's challenge nor its metadata names one. */
  scope?: string;
  /**
   * Use this authorization server instead of discovering it from the MCP
   * server's protected-resource metadata (`oauth.authorizationServerUrl`).
   */
  authorizationServerUrl?: string;
  /** Opt out of the issuer echo check for this server only (warns every time). */
  skipIssuerMetadataValidation?: boolean;
  /** Called when a connection finds it needs a login (before failing with `not_authorized`), e.g. for `autoAuth`. */
  onLoginNeeded?: () => void;
  /** Receives the authorization URL; without it, needing a login is an error. */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>;
  warn?: (message: string) => void;
  /** Epoch ms; injectable for tests. */
  now?: () => number;
  /** Random `state` values; injectable for tests. */
  createState?: () => string;
  /** A non-interactive grant (client credentials, Cross-App Access) instead of the browser flow. */
  machineGrant?: MachineGrant;
  /** Custom token-endpoint client authentication, e.g. `privateKeyJwtAuthentication`. */
  addClientAuthentication?: OAuthClientProvider["addClientAuthentication"];
  /**
   * A login that a refresh cannot satisfy (a scope step-up: refreshing never
   * widens a grant): stored tokens read as none, so the flow asks the user.
   */
  skipRefresh?: boolean;
}

export class McpOAuthProvider implements OAuthClientProvider {
  readonly credentials: ServerCredentials;
  private verifier: string | undefined;
  private currentState: string | undefined;
  private resolvedSecret: Promise<string | undefined> | undefined;
  /** The refresh token `tokens()` last handed to the SDK: the one a later `invalid_grant` is about. */
  private handedRefreshToken: string | undefined;
  /** What discovery found in the current flow of this object (see the header). */
  private flowDiscovery: OAuthDiscoveryState | undefined;
  private readonly now: () => number;
  readonly prepareTokenRequest: OAuthClientProvider["prepareTokenRequest"];
  readonly addClientAuthentication: OAuthClientProvider["addClientAuthentication"];

  constructor(private readonly options: McpOAuthProviderOptions) {
    this.credentials = new ServerCredentials(options.store, options.server, options.url);
    this.now = options.now ?? Date.now;
    const grant = options.machineGrant;
    this.prepareTokenRequest = grant
      ? async (scope?: string) => grant({ discovery: this.flowDiscovery, scope })
      : undefined;
    this.addClientAuthentication = options.addClientAuthentication;
  }

  get server(): string {
    return this.options.server;
  }

  /**
   * Undefined only for non-interactive grants (`prepareTokenRequest`). A
   * connection-only provider (no `onAuthorizationUrl`) still reports a
   * redirect URL so the SDK refreshes instead of attempting a machine grant.
   */
  get redirectUrl(): string | undefined {
    if (this.options.machineGrant) return undefined;
    return this.options.redirectUrl ?? CONNECTION_REDIRECT_URL;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirectUrl = this.redirectUrl;
    const interactive = redirectUrl !== undefined;
    const metadata: OAuthClientMetadata & { application_type: string } = {
      client_name: this.options.clientName ?? DEFAULT_CLIENT_NAME,
      // A CLI on the user's machine with a loopback redirect (SEP-837, OpenID DCR).
      application_type: "native",
      redirect_uris: redirectUrl ? [redirectUrl] : [],
      grant_types: interactive ? ["authorization_code", "refresh_token"] : ["client_credentials"],
      response_types: interactive ? ["code"] : [],
      token_endpoint_auth_method:
        this.options.tokenEndpointAuthMethod ?? (this.options.clientSecret ? "client_secret_basic" : "none"),
      ...(this.options.scope ? { scope: this.options.scope } : {}),
      ...(this.options.clientUri ? { client_uri: this.options.clientUri } : {}),
      ...(this.options.logoUri ? { logo_uri: this.options.logoUri } : {}),
    };
    return metadata;
  }

  /** The `state` sent with the last authorization request, to compare with the callback's. */
  get expectedState(): string | undefined {
    return this.currentState;
  }

  state(): string {
    this.currentState = (this.options.createState ?? (() => randomBytes(24).toString("base64url")))();
    return this.currentState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.options.clientId) {
      const configured = this.options.clientSecret;
      this.resolvedSecret ??= typeof configured === "function" ? configured() : Promise.resolve(configured);
      const secret = await this.resolvedSecret;
      return {
        client_id: this.options.clientId,
        ...(secret ? { client_secret: secret } : {}),
        ...(this.options.tokenEndpointAuthMethod
          ? { token_endpoint_auth_method: this.options.tokenEndpointAuthMethod }
          : {}),
      };
    }
    const client = (await this.load())?.client as OAuthClientInformationMixed | undefined;
    if (!this.options.onAuthorizationUrl) {
      // A connection never registers a client on its own, not even when the resource moved to
      // another authorization server: that belongs to an explicit login.
      if (!this.options.machineGrant && (!client || this.registeredElsewhere(client)))
        throw this.loginNeeded();
      return client;
    }
    // A registration made for another redirect URI (an earlier loopback port) cannot finish this login.
    const registered = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    if (client && registered && this.options.redirectUrl && !registered.includes(this.options.redirectUrl)) {
      return undefined;
    }
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.options.clientId) return; // pre-registered: nothing to persist
    await this.credentials.update((current) => ({ ...current, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.options.skipRefresh) return undefined;
    const tokens = (await this.load())?.tokens as OAuthTokens | undefined;
    this.handedRefreshToken = tokens?.refresh_token;
    return tokens;
  }

  /** A client the SDK stamped with another authorization server than the one just discovered. */
  private registeredElsewhere(client: OAuthClientInformationMixed): boolean {
    const issuer = (client as { issuer?: unknown }).issuer;
    const current = this.flowDiscovery;
    if (typeof issuer !== "string" || !current) return false;
    const names = [current.authorizationServerUrl, current.authorizationServerMetadata?.issuer];
    return !names.some((name) => name !== undefined && issuersMatch(String(name), issuer));
  }

  /** A connection treats an unusable store as empty (remembering why); a login must not. */
  private load(): Promise<StoredCredentials | undefined> {
    if (!this.connectionOnly) return this.credentials.load();
    return tolerateStoreFailure(this.options.store, () => this.credentials.load(), undefined);
  }

  /** Writes a connection makes are caches (discovery, a dropped token): an unusable store skips them. */
  private async cacheWrite(write: () => Promise<unknown>): Promise<void> {
    if (!this.connectionOnly) {
      await write();
      return;
    }
    await tolerateStoreFailure(this.options.store, write, undefined);
  }

  private get connectionOnly(): boolean {
    return !this.options.onAuthorizationUrl;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const now = this.now();
    // A pre-registered client is stored too, so the token API can refresh without the config.
    const preRegistered = this.options.clientId ? await this.clientInformation() : undefined;
    // A refresh answer the coordinator already stored is not written over a newer rotation.
    await this.credentials.update((current) =>
      isSupersededAnswer(this.credentials, current, tokens)
        ? current
        : {
            ...current,
            ...(preRegistered ? { client: preRegistered } : {}),
            // Keep a rotating server's previous refresh token when it sends none back.
            tokens: { ...tokens, refresh_token: tokens.refresh_token ?? current.tokens?.refresh_token },
            obtainedAt: now,
          },
    );
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { onAuthorizationUrl, authorizationParams } = this.options;
    if (!onAuthorizationUrl) throw this.loginNeeded();
    await onAuthorizationUrl(withAuthorizationParams(authorizationUrl, authorizationParams));
  }

  private loginNeeded(): OAuthError {
    this.options.onLoginNeeded?.();
    return loginNeededError({
      server: this.options.server,
      store: this.options.store,
      discovery: this.flowDiscovery,
    });
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) {
      throw new OAuthError("callback_failed", `No OAuth login for "${this.options.server}" is in progress`);
    }
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    // The check needs an issuer the resource server advertised (RFC 9728). Without
    // protected-resource metadata (2025-03-26 servers) the authorization server URL is
    // only inferred from the MCP URL's origin, so there is nothing to hold the echo to.
    if (state.resourceMetadata) {
      checkIssuerEcho({
        server: this.options.server,
        authorizationServerUrl: state.authorizationServerUrl,
        metadataIssuer: state.authorizationServerMetadata?.issuer,
        skip: this.options.skipIssuerMetadataValidation === true,
        warn: this.options.warn ?? ((message) => console.warn(message)),
      });
    }
    this.flowDiscovery = state;
    await this.cacheWrite(() =>
      this.credentials.update((current) => ({
        ...current,
        discovery: state as StoredCredentials["discovery"],
      })),
    );
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    // Only a login this object started (its PKCE verifier is here) finishes with what it
    // discovered; anything else discovers afresh (see the header).
    const current = this.verifier === undefined ? undefined : this.flowDiscovery;
    const { server, authServerMetadataUrl: metadataUrl, fetch } = this.options;
    if (!current && metadataUrl) return loadConfiguredMetadata(server, metadataUrl, fetch);
    const configured = this.options.authorizationServerUrl;
    // The SDK skips protected-resource discovery when an authorization server is given.
    if (configured && !(current && issuersMatch(current.authorizationServerUrl, configured))) {
      return { authorizationServerUrl: configured };
    }
    return current;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    if (scope === "all" || scope === "discovery") this.flowDiscovery = undefined;
    if (scope === "all") {
      this.verifier = undefined;
      await this.cacheWrite(() => this.credentials.remove());
      return;
    }
    const field = scope === "tokens" ? "tokens" : scope === "client" ? "client" : "discovery";
    // The refused token: the coordinator may have sent a newer one than `tokens()` handed out.
    const rejected = refusedRefreshToken(this.credentials) ?? this.handedRefreshToken;
    await this.cacheWrite(() =>
      this.credentials.update((current) => {
        // The SDK drops tokens after `invalid_grant`. Read again under the hold: when the stored refresh
        // token is no longer the refused one, another process has rotated it meanwhile; its tokens stay.
        const stored = current.tokens?.refresh_token;
        if (field === "tokens" && rejected !== undefined && stored !== undefined && stored !== rejected) {
          return current;
        }
        const next = { ...current };
        delete next[field];
        return next;
      }),
    );
  }
}
