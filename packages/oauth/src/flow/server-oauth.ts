/**
 * One configured OAuth server → what talks OAuth for it: the provider and,
 * with DPoP, the signing fetch. The only place a server entry's settings
 * become provider options, so a connection and a login of the same server
 * always agree on client, scope, authorization server and DPoP key.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CredentialStore } from "../stores/credential-store.js";
import { clientCredentialsGrant } from "../tokens/machine-grants.js";
import { coordinateRefresh } from "../tokens/refresh-coordinator.js";
import type { OAuthChallenges } from "./challenges.js";
import { createDpopFetch, loadOrCreateDpopKey } from "./dpop.js";
import {
  McpOAuthProvider,
  type McpOAuthProviderOptions,
  type TokenEndpointAuthMethod,
} from "./mcp-oauth-provider.js";
import { type OAuthRequestHeaders, withOAuthRequestHeaders } from "./oauth-request-headers.js";

/** What the adapter knows about one OAuth-capable server. */
export interface OAuthServerEntry {
  name: string;
  url: string;
  clientName?: string;
  clientId?: string;
  /** The secret, or a function resolving it when first needed (a `!command` runs only then). */
  clientSecret?: string | (() => Promise<string | undefined>);
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  scope?: string;
  skipIssuerMetadataValidation?: boolean;
  /** Fixed loopback port (0 or unset: a free port per login). */
  callbackPort?: number;
  /** A fixed callback URL for logins (`oauth.redirectUri`); see `OAuthLoginOptions.fixedRedirectUrl`. */
  redirectUri?: string;
  /** Use this authorization server instead of discovery (`oauth.authorizationServerUrl`). */
  authorizationServerUrl?: string;
  /** Bind tokens to a key with DPoP (RFC 9449); fails closed if the server cannot. */
  dpop?: boolean;
  /** `client_credentials`: a machine login with `clientId` and `clientSecret`, no browser. */
  grantType?: "authorization_code" | "client_credentials";
  /** Options carried over from 2.x; see `McpOAuthProviderOptions`. */
  clientMetadataUrl?: string;
  authServerMetadataUrl?: string;
  authorizationParams?: Record<string, string>;
  clientUri?: string;
  logoUri?: string;
  /** The server's configured headers, sent on its OAuth requests at the MCP URL's origin. */
  requestHeaders?: OAuthRequestHeaders;
}

/** What every server of one adapter shares. */
export interface ServerOAuthContext {
  store: CredentialStore;
  fetch?: FetchLike;
  warn?: (message: string) => void;
  /**
   * Where connections note each server's latest 401/403 challenge, so a
   * later login asks for what the server asked for (a scope step-up).
   */
  challenges?: OAuthChallenges;
}

/** The provider options for `entry` (a connection's; a login adds its redirect handling). */
export function serverProviderOptions(
  entry: OAuthServerEntry,
  context: ServerOAuthContext,
): McpOAuthProviderOptions {
  return {
    server: entry.name,
    url: entry.url,
    store: context.store,
    clientName: entry.clientName,
    clientId: entry.clientId,
    clientSecret: entry.clientSecret,
    tokenEndpointAuthMethod: entry.tokenEndpointAuthMethod,
    scope: entry.scope,
    skipIssuerMetadataValidation: entry.skipIssuerMetadataValidation,
    authorizationServerUrl: entry.authorizationServerUrl,
    clientMetadataUrl: entry.clientMetadataUrl,
    authServerMetadataUrl: entry.authServerMetadataUrl,
    authorizationParams: entry.authorizationParams,
    clientUri: entry.clientUri,
    logoUri: entry.logoUri,
    fetch: oauthRequestFetch(entry, context),
    ...(entry.grantType === "client_credentials" ? { machineGrant: clientCredentialsGrant() } : {}),
    warn: context.warn,
  };
}

/** `context.fetch`, with the server's configured headers on its OAuth requests. */
function oauthRequestFetch(entry: OAuthServerEntry, context: ServerOAuthContext): FetchLike | undefined {
  return entry.requestHeaders
    ? withOAuthRequestHeaders(entry.url, entry.requestHeaders, context.fetch)
    : context.fetch;
}

/**
 * A connection's provider for `entry` (stored tokens and refresh, never a
 * login by itself; `onLoginNeeded` hears when one is needed) and the fetch to
 * use: DPoP-signing for `dpop` servers, else `context.fetch` — noting the
 * server's challenges in `context.challenges` when there is one, and always
 * coordinating refreshes with other processes (`refresh-coordinator.ts`).
 */
export function createServerOAuth(
  entry: OAuthServerEntry,
  context: ServerOAuthContext,
  hooks: Pick<McpOAuthProviderOptions, "onLoginNeeded"> = {},
): { provider: McpOAuthProvider; fetch: FetchLike } {
  const options = { ...serverProviderOptions(entry, context), ...hooks };
  const provider = new McpOAuthProvider(options);
  const signed = entry.dpop
    ? createDpopFetch({ key: () => loadOrCreateDpopKey(provider.credentials), fetch: options.fetch })
    : options.fetch;
  const fetch = coordinateRefresh(provider.credentials, signed);
  return { provider, fetch: context.challenges ? context.challenges.observe(entry.name, fetch) : fetch };
}
