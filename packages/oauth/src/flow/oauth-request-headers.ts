/**
 * A server's configured HTTP headers on its OAuth requests too (discovery,
 * registration, token exchange, refresh), for a gateway in front of the
 * authorization server such as Cloudflare Access — but only at the MCP
 * URL's own origin, so a service credential never reaches another site. A
 * header the request already carries (the SDK's `Authorization`, content
 * types) wins. A request that got these headers follows no redirect, so they
 * cannot be carried somewhere else. Values are resolved on the first request
 * that needs them and reused for this fetch's life (one connection or login).
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** Resolves the headers (a `!command` value runs only here); its errors never hold a value. */
export type OAuthRequestHeaders = () => Promise<Record<string, string>>;

export function withOAuthRequestHeaders(
  mcpUrl: string,
  resolve: OAuthRequestHeaders,
  fetch?: FetchLike,
): FetchLike {
  const send: FetchLike = fetch ?? ((url, init) => globalThis.fetch(url, init));
  const origin = new URL(mcpUrl).origin;
  let resolved: Promise<Record<string, string>> | undefined;
  return async (url, init) => {
    if (new URL(String(url)).origin !== origin) return send(url, init);
    resolved ??= resolve();
    const configured = await resolved.catch((error: unknown) => {
      resolved = undefined; // a failed command is tried again by the next request
      throw error;
    });
    const headers = new Headers(init?.headers);
    let added = false;
    for (const [name, value] of Object.entries(configured)) {
      if (headers.has(name)) continue;
      headers.set(name, value);
      added = true;
    }
    return send(url, added ? { ...init, headers, redirect: "error" } : init);
  };
}
