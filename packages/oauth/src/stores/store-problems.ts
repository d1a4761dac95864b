/**
 * A credential store that cannot be used (keytar not built, no D-Bus, no
 * Secret Service, a locked keyring, a missing file key) must not stop a
 * connection that has nothing stored to send. Connections use the store
 * through `tolerateStoreFailure`: such a failure counts as "nothing stored" and is
 * remembered per store, so the one place credentials matter — a server
 * answering 401 — can name the problem and its fix. Logins check the store
 * first (`checkCredentialStore`) and fail before any browser step.
 */

import { OAuthError, type OAuthErrorCode } from "../errors.js";
import type { CredentialStore } from "./credential-store.js";

/** Codes meaning the store as a whole cannot be used here (not that one record is bad). */
const STORE_FAILURES: ReadonlySet<OAuthErrorCode> = new Set<OAuthErrorCode>([
  "store_unavailable",
  "store_locked",
  "store_failed",
  "file_key_missing",
  "file_key_invalid",
]);

const problems = new WeakMap<CredentialStore, OAuthError>();

/** Whether `error` says the store itself cannot be used (as opposed to one unreadable record). */
export function isStoreFailure(error: unknown): error is OAuthError {
  return error instanceof OAuthError && STORE_FAILURES.has(error.code);
}

/** The last failure seen on `store` while connecting or checking, until a check passes. */
export function credentialStoreProblem(store: CredentialStore): OAuthError | undefined {
  return problems.get(store);
}

export function rememberStoreProblem(store: CredentialStore, error: OAuthError): void {
  problems.set(store, error);
}

/**
 * Runs `use` (a read, or a write that only caches); a store failure is
 * remembered and yields `fallback` instead of throwing. Anything else (a
 * corrupt record, an issuer mismatch) still throws.
 */
export async function tolerateStoreFailure<T>(
  store: CredentialStore,
  use: () => Promise<T>,
  fallback: T,
): Promise<T> {
  try {
    return await use();
  } catch (error) {
    if (!isStoreFailure(error)) throw error;
    rememberStoreProblem(store, error);
    return fallback;
  }
}

/**
 * Proves `store` can hold credentials now, throwing the `OAuthError` a login
 * would otherwise hit only after the browser step. Uses the store's own
 * `check` (the keyring writes and deletes a probe entry, since a locked
 * keyring answers reads with "nothing stored"), else one read.
 */
export async function checkCredentialStore(store: CredentialStore): Promise<void> {
  try {
    if (store.check) await store.check();
    else await store.get(PROBE_ACCOUNT);
  } catch (error) {
    if (isStoreFailure(error)) rememberStoreProblem(store, error);
    throw error;
  }
  problems.delete(store);
}

/**
 * Account used only to probe a store. The `#` form is what chunk entries use
 * (`<server>#<n>`), so it never collides with a whole server record.
 */
export const PROBE_ACCOUNT = "pi-mcp-adapter#store-check";
