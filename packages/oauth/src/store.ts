/**
 * The credential-store part of the package on its own (`@pi-mcp-adapter/oauth/store`): what a session
 * start needs to pick, share and record the store, without the login code, which a host loads from the
 * package's main entry when a server first needs OAuth. It loads no zod: a stored record's schema loads
 * when one is first read.
 */

export { OAuthError } from "./errors.js";
export {
  type CredentialStoreSetting,
  createCredentialStore,
  isCredentialStoreSetting,
} from "./stores/create-credential-store.js";
export type { CredentialStore, CredentialStoreKind } from "./stores/credential-store.js";
export { recordDefaultCredentialStore, setDefaultCredentialStore } from "./stores/default-store.js";
export { isStoreFailure } from "./stores/store-problems.js";
export {
  clearStoredBearerToken,
  readStoredBearerToken,
  type StoredBearerTokenStatus,
  storeBearerToken,
  storedBearerTokenStatus,
} from "./stores/stored-bearer-token.js";
export { pendingV2Imports } from "./stores/v2-import-marker.js";
export { v2StoresReachable } from "./stores/v2-sources.js";
