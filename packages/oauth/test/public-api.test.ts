/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/oauth` (src/index.ts). */
const ROOT = [
  "AuthStartResult",
  "CreateCredentialStoreOptions",
  "CredentialStore",
  "CredentialStoreKind",
  "CredentialStoreSetting",
  "CredentialStoreSettingSchema",
  "CrossAppAccessOptions",
  "DpopFetchOptions",
  "DpopKey",
  "EncryptedFileStoreOptions",
  "JwtBearerOptions",
  "KeyringStoreOptions",
  "KeytarLike",
  "LogoutOptions",
  "LogoutResult",
  "MachineGrant",
  "MachineGrantContext",
  "McpOAuthProvider",
  "McpOAuthProviderOptions",
  "McpOAuthStatus",
  "McpOAuthTokens",
  "McpOAuthTokensSchema",
  "OAuthChallenge",
  "OAuthChallenges",
  "OAuthError",
  "OAuthErrorCode",
  "OAuthLogin",
  "OAuthLoginOptions",
  "OAuthLoginRequiredError",
  "OAuthLogins",
  "OAuthLoginsOptions",
  "OAuthServerEntry",
  "PrivateKeyJwtOptions",
  "ServerOAuthContext",
  "SessionKeyringOptions",
  "TokenApiOptions",
  "TokenEndpointAuthMethod",
  "V2ImportOptions",
  "V2ImportOutcome",
  "V2StoreReaderOptions",
  "authStartMessage",
  "checkCredentialStore",
  "clientCredentialsGrant",
  "createCredentialStore",
  "createDpopFetch",
  "createEncryptedFileStore",
  "createKeyringStore",
  "createMemoryCredentialStore",
  "createServerOAuth",
  "createV2StoreReader",
  "credentialStoreProblem",
  "crossAppAccessGrant",
  "defaultEncryptedFileDir",
  "describeV2ImportOutcome",
  "getDefaultCredentialStore",
  "getMcpOAuthStatus",
  "getMcpOAuthTokensForUrl",
  "importLegacyTokens",
  "importV2Credentials",
  "isStoreFailure",
  "jwtBearerGrant",
  "loadOrCreateDpopKey",
  "logoutMcpOAuth",
  "privateKeyJwtAuthentication",
  "recordDefaultCredentialStore",
  "serverProviderOptions",
  "sessionKeyringRevoked",
  "setDefaultCredentialStore",
  "startOAuthLogin",
  "updateMcpOAuthTokensForUrl",
];

/** `@pi-mcp-adapter/oauth/store` (src/store.ts). */
const STORE = [
  "StoredBearerTokenStatus",
  "clearStoredBearerToken",
  "readStoredBearerToken",
  "storeBearerToken",
  "storedBearerTokenStatus",
  "CredentialStore",
  "CredentialStoreKind",
  "CredentialStoreSetting",
  "OAuthError",
  "createCredentialStore",
  "isCredentialStoreSetting",
  "isStoreFailure",
  "pendingV2Imports",
  "recordDefaultCredentialStore",
  "setDefaultCredentialStore",
  "v2StoresReachable",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/oauth exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/oauth/store exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/store.ts", import.meta.url), STORE)).toEqual(NONE);
  });
});
