export { OAuthError, type OAuthErrorCode, OAuthLoginRequiredError } from "./errors.js";
export {
  type CallbackResult,
  type IssuerExpectation,
  readCallbackParams,
  readPastedCallback,
} from "./flow/callback-input.js";
export { type OAuthChallenge, OAuthChallenges, parseChallenge } from "./flow/challenges.js";
export {
  createDpopFetch,
  type DpopFetchOptions,
  type DpopKey,
  generateDpopKey,
  loadOrCreateDpopKey,
} from "./flow/dpop.js";
export { checkIssuerEcho, issuersMatch } from "./flow/issuer-check.js";
export {
  type LoopbackListener,
  type LoopbackListenerOptions,
  startLoopbackListener,
} from "./flow/loopback-listener.js";
export {
  DEFAULT_CLIENT_NAME,
  McpOAuthProvider,
  type McpOAuthProviderOptions,
  type TokenEndpointAuthMethod,
} from "./flow/mcp-oauth-provider.js";
export {
  DEFAULT_LOGIN_TIMEOUT_MS,
  type OAuthLogin,
  type OAuthLoginOptions,
  startOAuthLogin,
} from "./flow/oauth-login.js";
export {
  type AuthStartResult,
  authStartMessage,
  OAuthLogins,
  type OAuthLoginsOptions,
} from "./flow/oauth-logins.js";
export {
  createServerOAuth,
  type OAuthServerEntry,
  type ServerOAuthContext,
  serverProviderOptions,
} from "./flow/server-oauth.js";
export {
  type CreateCredentialStoreOptions,
  type CredentialStoreSetting,
  CredentialStoreSettingSchema,
  createCredentialStore,
} from "./stores/create-credential-store.js";
export {
  type CredentialStore,
  type CredentialStoreKind,
  createMemoryCredentialStore,
} from "./stores/credential-store.js";
export {
  DEFAULT_STORE_FILE,
  getDefaultCredentialStore,
  recordDefaultCredentialStore,
  setDefaultCredentialStore,
} from "./stores/default-store.js";
export {
  createEncryptedFileStore,
  type EncryptedFileStoreOptions,
  FILE_KEY_ENV,
} from "./stores/encrypted-file-store.js";
export {
  createKeyringStore,
  DEFAULT_KEYRING_SERVICE,
  type KeyringStoreOptions,
} from "./stores/keyring-store.js";
export type { KeytarLike } from "./stores/keytar-like.js";
export {
  importLegacyTokens,
  type LegacyImportOptions,
  type LegacyImportOutcome,
} from "./stores/legacy-import.js";
export { defaultEncryptedFileDir } from "./stores/oauth-dir.js";
export { normalizeServerUrl } from "./stores/server-credentials.js";
export { type SessionKeyringOptions, sessionKeyringRevoked } from "./stores/session-keyring.js";
export {
  checkCredentialStore,
  credentialStoreProblem,
  isStoreFailure,
} from "./stores/store-problems.js";
export {
  clearStoredBearerToken,
  maskBearerToken,
  readStoredBearerToken,
  type StoredBearerTokenStatus,
  storeBearerToken,
  storedBearerTokenStatus,
} from "./stores/stored-bearer-token.js";
export { type LogoutOptions, type LogoutResult, logoutMcpOAuth } from "./tokens/logout.js";
export {
  type CrossAppAccessOptions,
  clientCredentialsGrant,
  crossAppAccessGrant,
  type JwtBearerOptions,
  jwtBearerGrant,
  type MachineGrant,
  type MachineGrantContext,
  type PrivateKeyJwtOptions,
  privateKeyJwtAuthentication,
} from "./tokens/machine-grants.js";
export {
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  type McpOAuthStatus,
  type McpOAuthTokens,
  McpOAuthTokensSchema,
  type TokenApiOptions,
  updateMcpOAuthTokensForUrl,
} from "./tokens/token-api.js";
