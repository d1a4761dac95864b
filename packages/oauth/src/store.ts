/**
 * The credential-store part of the package on its own (`@pi-mcp-adapter/oauth/store`): what a session
 * start needs to pick, share and record the store, without the login code, which a host loads from the
 * package's main entry when a server first needs OAuth.
 */
export { CredentialStoreSettingSchema, createCredentialStore } from "./create-credential-store.js";
export type { CredentialStore, CredentialStoreKind } from "./credential-store.js";
export { recordDefaultCredentialStore, setDefaultCredentialStore } from "./default-store.js";
export { OAuthError } from "./errors.js";
export { isStoreFailure } from "./store-problems.js";
