/**
 * DPoP (RFC 9449) for servers configured with `oauth.dpop: true`: a fetch
 * wrapper that signs an ES256 proof (jose) for every token request and every
 * request carrying the access token, presents the token with the `DPoP`
 * scheme and an `ath` claim, follows `use_dpop_nonce` challenges from the
 * authorization server and the resource server (one retry), and fails closed
 * when the authorization server hands out a token not bound to the key.
 *
 * The key pair is stored with the server's credentials, so a token obtained
 * with it stays usable after a restart.
 */
import { createHash, randomUUID } from "node:crypto";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { generateKeyPair, JWK } from "jose";

/** jose loads with the first DPoP key or proof: most sessions never use DPoP. */
const loadJose = () => import("jose");

import { OAuthError } from "../errors.js";
import type { ServerCredentials } from "../stores/server-credentials.js";

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

export interface DpopKey {
  privateKey: SigningKey;
  publicJwk: JWK;
}

export async function generateDpopKey(): Promise<{ key: DpopKey; privateJwk: JWK }> {
  const { exportJWK, generateKeyPair } = await loadJose();
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const { kty, crv, x, y } = await exportJWK(publicKey);
  return { key: { privateKey, publicJwk: { kty, crv, x, y } }, privateJwk };
}

/** The server's stored DPoP key, or a new one saved with its credentials. */
export async function loadOrCreateDpopKey(credentials: ServerCredentials): Promise<DpopKey> {
  const stored = (await credentials.load())?.dpopKey as JWK | undefined;
  if (stored) {
    const { kty, crv, x, y } = stored;
    const { importJWK } = await loadJose();
    return { privateKey: (await importJWK(stored, "ES256")) as SigningKey, publicJwk: { kty, crv, x, y } };
  }
  const { key, privateJwk } = await generateDpopKey();
  await credentials.update((current) => ({ ...current, dpopKey: privateJwk }));
  return key;
}

export interface DpopFetchOptions {
  key: DpopKey | (() => Promise<DpopKey>);
  fetch?: FetchLike;
  /** Epoch seconds; injectable for tests. */
  now?: () => number;
}

function requestParts(input: string | URL, init: RequestInit | undefined) {
  const url = new URL(String(input instanceof Request ? input.url : input));
  const method = (init?.method ?? "GET").toUpperCase();
  const headers = new Headers(init?.headers);
  const body = init?.body;
  const isTokenRequest =
    method === "POST" &&
    ((body instanceof URLSearchParams && body.has("grant_type")) ||
      (typeof body === "string" && /(^|&)grant_type=/.test(body)));
  return { url, method, headers, isTokenRequest };
}

async function jsonOf(response: Response): Promise<{ error?: string; token_type?: string }> {
  return (await response
    .clone()
    .json()
    .catch(() => ({}))) as { error?: string; token_type?: string };
}

const nonceChallenged = (response: Response) =>
  (response.status === 400 || response.status === 401) &&
  (response.headers.get("www-authenticate")?.includes("use_dpop_nonce") === true ||
    response.headers.get("dpop-nonce") !== null);

export function createDpopFetch(options: DpopFetchOptions): FetchLike {
  const base = options.fetch ?? fetch;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const nonces = new Map<string, string>(); // origin -> last nonce
  let keyPromise: Promise<DpopKey> | undefined;
  const key = () => {
    keyPromise ??= typeof options.key === "function" ? options.key() : Promise.resolve(options.key);
    return keyPromise;
  };

  async function proof(method: string, url: URL, accessToken: string | undefined): Promise<string> {
    const { privateKey, publicJwk } = await key();
    const htu = `${url.origin}${url.pathname}`;
    const nonce = nonces.get(url.origin);
    const { SignJWT } = await loadJose();
    return new SignJWT({
      htm: method,
      htu,
      jti: randomUUID(),
      ...(nonce ? { nonce } : {}),
      ...(accessToken ? { ath: createHash("sha256").update(accessToken).digest("base64url") } : {}),
    })
      .setProtectedHeader({ typ: "dpop+jwt", alg: "ES256", jwk: publicJwk })
      .setIssuedAt(now())
      .sign(privateKey);
  }

  async function send(input: string | URL, init: RequestInit | undefined): Promise<Response> {
    const { url, method, headers, isTokenRequest } = requestParts(input, init);
    const authorization = headers.get("authorization");
    const token = authorization?.match(/^(?:Bearer|DPoP)\s+(.+)$/i)?.[1];
    if (!isTokenRequest && !token) return base(input, init);
    if (token) headers.set("authorization", `DPoP ${token}`);
    headers.set("dpop", await proof(method, url, isTokenRequest ? undefined : token));
    const response = await base(input, { ...init, headers });
    const nonce = response.headers.get("dpop-nonce");
    if (nonce) nonces.set(url.origin, nonce);
    return response;
  }

  return async (input, init) => {
    const { url, isTokenRequest } = requestParts(input, init);
    let response = await send(input, init);
    if (nonceChallenged(response) && response.headers.get("dpop-nonce")) {
      const isChallenge = response.status === 401 || (await jsonOf(response)).error === "use_dpop_nonce";
      if (isChallenge) {
        await response.body?.cancel();
        response = await send(input, init);
      }
    }
    if (isTokenRequest && response.ok) {
      const body = await jsonOf(response);
      if (body.token_type?.toLowerCase() !== "dpop") {
        await response.body?.cancel();
        throw new OAuthError(
          "authorization_failed",
          `The authorization server at ${url.origin} issued a "${body.token_type ?? "unknown"}" token instead of a DPoP-bound one; ` +
            "oauth.dpop is set for this server, so the token is not used",
        );
      }
    }
    return response;
  };
}
