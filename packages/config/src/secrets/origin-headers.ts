/**
 * Keeps a server's configured headers at its own origin. The MCP SDK adds a
 * transport's configured headers to every request it makes for that
 * connection, OAuth requests included — also to an authorization server on
 * another site, which must never see a gateway's service token or an API key
 * meant for the MCP server. For such a request this fetch removes each
 * configured header that still carries its configured value (a header the
 * SDK set itself, such as a token request's `Authorization`, stays).
 */
import type { SecretFetch } from "./secret-headers.js";

export function keepHeadersAtOrigin(
  origin: string,
  configured: Record<string, string>,
  fetch?: SecretFetch,
): SecretFetch {
  const send: SecretFetch = fetch ?? ((url, init) => globalThis.fetch(url, init));
  return (url, init) => {
    if (new URL(String(url)).origin === origin || init?.headers === undefined) return send(url, init);
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(configured)) {
      if (headers.get(name) === value) headers.delete(name);
    }
    return send(url, { ...init, headers });
  };
}
