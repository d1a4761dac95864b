/**
 * The SDK's client auth module (discovery, registration, PKCE, token
 * requests), loaded with the first login or refresh: building its schemas
 * costs start-up time in every session, and most sessions never log in.
 */
export const loadSdkAuth = () => import("@modelcontextprotocol/sdk/client/auth.js");
