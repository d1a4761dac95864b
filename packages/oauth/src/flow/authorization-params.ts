/**
 * `oauth.authorizationParams` (carried over from pi-mcp-adapter 2.x): extra
 * query parameters on the authorization URL for a provider's own extensions
 * (`prompt`, `audience`, `organization`, …). A parameter the login flow set
 * (client, redirect, PKCE, state, scope, resource) is never replaced; config
 * loading already rejects those names.
 */

/** `url` with `params` added (a copy); what the flow set stays as it is. */
export function withAuthorizationParams(url: URL, params: Record<string, string> | undefined): URL {
  if (!params) return url;
  const next = new URL(url);
  for (const [name, value] of Object.entries(params)) {
    if (!url.searchParams.has(name)) next.searchParams.set(name, value);
  }
  return next;
}
