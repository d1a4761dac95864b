/**
 * `pi-mcp-adapter/oauth`: the token API for cooperating Pi extensions.
 *
 * Re-exports the public token API of `@pi-mcp-adapter/oauth`: read the
 * URL-bound token of a configured server (refreshed first when it is about
 * to expire), store tokens for it, and read a secret-free status. Client
 * registrations, PKCE verifiers and OAuth state are never exposed.
 */
export {
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  type McpOAuthStatus,
  type McpOAuthTokens,
  OAuthError,
  type TokenApiOptions,
  updateMcpOAuthTokensForUrl,
} from "@pi-mcp-adapter/oauth";
