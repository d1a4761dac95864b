export { type OAuthChallenge, OAuthChallenges } from "./challenges.js";
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
  getDefaultCredentialStore,
  recordDefaultCredentialStore,
  setDefaultCredentialStore,
} from "./default-store.js";
export { createDpopFetch, type DpopFetchOptions, type DpopKey, loadOrCreateDpopKey } from "./dpop.js";
export { createEncryptedFileStore, type EncryptedFileStoreOptions } from "./encrypted-file-store.js";
export { OAuthError, type OAuthErrorCode, OAuthLoginRequiredError } from "./errors.js";
export { createKeyringStore, type KeyringStoreOptions } from "./keyring-store.js";
export type { KeytarLike } from "./keytar-like.js";
export { importLegacyTokens } from "./legacy-import.js";
export { type LogoutOptions, type LogoutResult, logoutMcpOAuth } from "./logout.js";
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
  McpOAuthProvider,
  type McpOAuthProviderOptions,
  type TokenEndpointAuthMethod,
} from "./mcp-oauth-provider.js";
export { defaultEncryptedFileDir } from "./oauth-dir.js";
export { type OAuthLogin, type OAuthLoginOptions, startOAuthLogin } from "./oauth-login.js";
export {
  type AuthStartResult,
  authStartMessage,
  OAuthLogins,
  type OAuthLoginsOptions,
} from "./oauth-logins.js";
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
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  type McpOAuthStatus,
  type McpOAuthTokens,
  McpOAuthTokensSchema,
  type TokenApiOptions,
  updateMcpOAuthTokensForUrl,
} from "./token-api.js";
