/**
 * One configured OAuth server → what talks OAuth for it: the provider and,
 * with DPoP, the signing fetch. The only place a server entry's settings
 * become provider options, so a connection and a login of the same server
 * always agree on client, scope, authorization server and DPoP key.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CredentialStore } from "../stores/credential-store.js";
import { coordinateRefresh } from "../tokens/refresh-coordinator.js";
import type { OAuthChallenges } from "./challenges.js";
import { createDpopFetch, loadOrCreateDpopKey } from "./dpop.js";
import {
  McpOAuthProvider,
  type McpOAuthProviderOptions,
  type TokenEndpointAuthMethod,
} from "./mcp-oauth-provider.js";

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
    warn: context.warn,
  };
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
  const provider = new McpOAuthProvider({ ...serverProviderOptions(entry, context), ...hooks });
  const signed = entry.dpop
    ? createDpopFetch({ key: () => loadOrCreateDpopKey(provider.credentials), fetch: context.fetch })
    : context.fetch;
  const fetch = coordinateRefresh(provider.credentials, signed);
  return { provider, fetch: context.challenges ? context.challenges.observe(entry.name, fetch) : fetch };
}
