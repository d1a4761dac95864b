/**
 * Grants that need no browser, for servers configured with them: client
 * credentials (with a client secret or a private-key JWT), a workload's own
 * JWT presented as a JWT bearer grant (RFC 7523, workload identity
 * federation, SEP-1933), and Cross-App Access (SEP-990: an enterprise IdP's
 * ID token exchanged for an ID-JAG (RFC 8693), then presented as a JWT
 * bearer grant). The SDK has no helper for the last two.
 */
import type { AddClientAuthentication, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";

import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { OAuthError } from "../errors.js";

export interface MachineGrantContext {
  /** Discovery results for this server (authorization server, metadata, resource). */
  discovery: OAuthDiscoveryState | undefined;
  scope: string | undefined;
}

/** Builds the token request body of a non-interactive grant. */
export type MachineGrant = (context: MachineGrantContext) => Promise<URLSearchParams>;

export function clientCredentialsGrant(): MachineGrant {
  return async ({ scope }) => {
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) params.set("scope", scope);
    return params;
  };
}

export interface JwtBearerOptions {
  /**
   * The workload's JWT from its identity provider (a cloud or CI token whose
   * audience is the authorization server), or a function fetching a fresh one.
   */
  assertion: string | (() => Promise<string>);
}

/**
 * Workload identity federation (RFC 7523 §2.1): the JWT is the grant. A
 * refusal (`invalid_grant`, `invalid_scope`, `unauthorized_client`) ends the
 * attempt; no other grant type is tried.
 */
export function jwtBearerGrant(options: JwtBearerOptions): MachineGrant {
  return async ({ scope }) => {
    const assertion = typeof options.assertion === "string" ? options.assertion : await options.assertion();
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion });
    if (scope) params.set("scope", scope);
    return params;
  };
}

export interface PrivateKeyJwtOptions {
  clientId: string;
  /** PEM, JWK or raw key bytes. */
  privateKey: string | Uint8Array | Record<string, unknown>;
  /** Signing algorithm, default ES256. */
  alg?: string;
}

/** `private_key_jwt` client authentication (RFC 7523 §2.2) for the token endpoint. */
export function privateKeyJwtAuthentication(options: PrivateKeyJwtOptions): AddClientAuthentication {
  // The SDK's helper loads with the first token request that uses it.
  return async (...args) => {
    const { createPrivateKeyJwtAuth } = await import("@modelcontextprotocol/sdk/client/auth-extensions.js");
    const authenticate = createPrivateKeyJwtAuth({
      issuer: options.clientId,
      subject: options.clientId,
      privateKey: options.privateKey,
      alg: options.alg ?? "ES256",
    });
    return authenticate(...args);
  };
}

export interface CrossAppAccessOptions {
  /** The enterprise IdP's token endpoint. */
  idpTokenEndpoint: string;
  /** This client's ID at the IdP. */
  idpClientId: string;
  /** The user's ID token from the IdP (or a function fetching a fresh one). */
  idToken: string | (() => Promise<string>);
  fetch?: FetchLike;
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

export function crossAppAccessGrant(options: CrossAppAccessOptions): MachineGrant {
  return async ({ discovery, scope }) => {
    if (!discovery) {
      throw new OAuthError(
        "authorization_failed",
        "Cross-App Access needs the server's discovery results first",
      );
    }
    const audience = discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl;
    const resource = discovery.resourceMetadata?.resource;
    const exchange = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      audience,
      subject_token: typeof options.idToken === "string" ? options.idToken : await options.idToken(),
      subject_token_type: ID_TOKEN,
      client_id: options.idpClientId,
    });
    if (resource) exchange.set("resource", resource);
    if (scope) exchange.set("scope", scope);
    const response = await (options.fetch ?? fetch)(options.idpTokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: exchange,
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
    if (!response.ok || !body.access_token) {
      throw new OAuthError(
        "authorization_failed",
        `The identity provider refused the Cross-App Access token exchange (HTTP ${response.status}${body.error ? `, ${body.error}` : ""})`,
      );
    }
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: body.access_token });
    if (scope) params.set("scope", scope);
    return params;
  };
}
