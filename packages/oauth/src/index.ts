export { OAuthError, type OAuthErrorCode, OAuthLoginRequiredError } from "./errors.js";
export { type OAuthChallenge, OAuthChallenges } from "./flow/challenges.js";
export { createDpopFetch, type DpopFetchOptions, type DpopKey, loadOrCreateDpopKey } from "./flow/dpop.js";
export {
  McpOAuthProvider,
  type McpOAuthProviderOptions,
  type TokenEndpointAuthMethod,
} from "./flow/mcp-oauth-provider.js";
export { type OAuthLogin, type OAuthLoginOptions, startOAuthLogin } from "./flow/oauth-login.js";
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
  createCredentialStore,
} from "./stores/create-credential-store.js";
export {
  type CredentialStore,
  type CredentialStoreKind,
  createMemoryCredentialStore,
} from "./stores/credential-store.js";
export { CredentialStoreSettingSchema } from "./stores/credential-store-setting-schema.js";
export {
  getDefaultCredentialStore,
  recordDefaultCredentialStore,
  setDefaultCredentialStore,
} from "./stores/default-store.js";
export { createEncryptedFileStore, type EncryptedFileStoreOptions } from "./stores/encrypted-file-store.js";
export { createKeyringStore, type KeyringStoreOptions } from "./stores/keyring-store.js";
export type { KeytarLike } from "./stores/keytar-like.js";
export { importLegacyTokens } from "./stores/legacy-import.js";
export { defaultEncryptedFileDir } from "./stores/oauth-dir.js";
export { type SessionKeyringOptions, sessionKeyringRevoked } from "./stores/session-keyring.js";
export { checkCredentialStore, credentialStoreProblem, isStoreFailure } from "./stores/store-problems.js";
export {
  describeV2ImportOutcome,
  importV2Credentials,
  type V2ImportOptions,
  type V2ImportOutcome,
} from "./stores/v2-import.js";
export { createV2StoreReader, type V2StoreReaderOptions } from "./stores/v2-store-reader.js";
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
