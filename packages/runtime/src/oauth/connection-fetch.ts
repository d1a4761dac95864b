/**
 * The fetch one HTTP connection hands its transport, layered from the
 * network out: the OAuth fetch (DPoP, refresh coordination, challenges),
 * then a `requestHeadersCommand` (it sees each request as sent and sets its
 * headers last), then `!command` headers (fresh per request, re-run on a
 * 401). For an OAuth server, configured and `!command` headers stay at the
 * MCP URL's origin: the SDK sends the connection's headers with its OAuth
 * requests, and an authorization server on another site must not get them.
 */
import { keepHeadersAtOrigin, type PreparedConnection } from "@pi-mcp-adapter/config";
import type { FetchLike } from "@pi-mcp-adapter/transport";

export function connectionFetch(
  prepared: PreparedConnection,
  oauth: { fetch?: FetchLike; usesOAuth: boolean },
): FetchLike | undefined {
  const { definition, requestHeaders, secretHeaders } = prepared;
  const origin = oauth.usesOAuth && definition.url ? new URL(definition.url).origin : undefined;
  let fetch = requestHeaders ? requestHeaders(oauth.fetch) : oauth.fetch;
  if (secretHeaders) fetch = secretHeaders.wrapFetch(fetch, origin);
  if (origin && definition.headers) fetch = keepHeadersAtOrigin(origin, definition.headers, fetch);
  return fetch;
}
