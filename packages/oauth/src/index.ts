export {
  type CallbackResult,
  type IssuerExpectation,
  readCallbackParams,
  readPastedCallback,
} from "./callback-input.js";
export { type OAuthChallenge, OAuthChallenges, parseChallenge } from "./challenges.js";
export {
  type CreateCredentialStoreOptions,
  type CredentialStoreSetting,
  CredentialStoreSettingSchema,
  createCredentialStore,
} from "./create-credential-store.js";
export {
  type CredentialStore,
  type CredentialStoreKind,
  createMemoryCredentialStore,
} from "./credential-store.js";
export {
  DEFAULT_STORE_FILE,
  getDefaultCredentialStore,
  recordDefaultCredentialStore,
  setDefaultCredentialStore,
} from "./default-store.js";
export {
  createDpopFetch,
  type DpopFetchOptions,
  type DpopKey,
  generateDpopKey,
  loadOrCreateDpopKey,
} from "./dpop.js";
export {
  createEncryptedFileStore,
  type EncryptedFileStoreOptions,
  FILE_KEY_ENV,
} from "./encrypted-file-store.js";
export { OAuthError, type OAuthErrorCode, OAuthLoginRequiredError } from "./errors.js";
export { checkIssuerEcho, issuersMatch } from "./issuer-check.js";
export {
  createKeyringStore,
  DEFAULT_KEYRING_SERVICE,
  type KeyringStoreOptions,
} from "./keyring-store.js";
export type { KeytarLike } from "./keytar-like.js";
export { importLegacyTokens, type LegacyImportOptions, type LegacyImportOutcome } from "./legacy-import.js";
export { type LogoutOptions, type LogoutResult, logoutMcpOAuth } from "./logout.js";
export {
  type LoopbackListener,
  type LoopbackListenerOptions,
  startLoopbackListener,
} from "./loopback-listener.js";
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
} from "./machine-grants.js";
export {
  DEFAULT_CLIENT_NAME,
  McpOAuthProvider,
  type McpOAuthProviderOptions,
  type TokenEndpointAuthMethod,
} from "./mcp-oauth-provider.js";
export { defaultEncryptedFileDir } from "./oauth-dir.js";
export {
  DEFAULT_LOGIN_TIMEOUT_MS,
  type OAuthLogin,
  type OAuthLoginOptions,
  startOAuthLogin,
} from "./oauth-login.js";
export {
  type AuthStartResult,
  authStartMessage,
  OAuthLogins,
  type OAuthLoginsOptions,
} from "./oauth-logins.js";
export { normalizeServerUrl } from "./server-credentials.js";
export {
  createServerOAuth,
  type OAuthServerEntry,
  type ServerOAuthContext,
  serverProviderOptions,
} from "./server-oauth.js";
export { type SessionKeyringOptions, sessionKeyringRevoked } from "./session-keyring.js";
export {
  checkCredentialStore,
  credentialStoreProblem,
  isStoreFailure,
} from "./store-problems.js";
export {
  clearStoredBearerToken,
  maskBearerToken,
  readStoredBearerToken,
  type StoredBearerTokenStatus,
  storeBearerToken,
  storedBearerTokenStatus,
} from "./stored-bearer-token.js";
export {
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  type McpOAuthStatus,
  type McpOAuthTokens,
  McpOAuthTokensSchema,
  type TokenApiOptions,
  updateMcpOAuthTokensForUrl,
} from "./token-api.js";
