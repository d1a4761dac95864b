/**
 * The one interface every credential backend implements. A store holds
 * opaque strings under an account name; what they mean (tokens bound to a
 * URL) is decided by `server-credentials.ts`, so every backend gets the same
 * URL binding for free.
 *
 * Contract: `get` returns `undefined` only when nothing is stored; any other
 * failure (locked, unreachable, wrong key) throws an `OAuthError`. A store
 * never falls back to another store and never writes plaintext. Connections
 * read through `store-problems.ts`, which turns such failures into "nothing
 * stored" plus a remembered problem.
 */
export type CredentialStoreKind = "keyring" | "encrypted-file" | "memory";

export interface CredentialStore {
  readonly kind: CredentialStoreKind;
  get(account: string): Promise<string | undefined>;
  set(account: string, value: string): Promise<void>;
  /** Returns true when something was deleted. */
  delete(account: string): Promise<boolean>;
  /**
   * Optional probe that the store can hold credentials now, for a store whose
   * reads cannot tell (a locked keyring reads as empty). Throws the
   * `OAuthError` a write would. Without it, `checkCredentialStore` reads once.
   */
  check?(): Promise<void>;
  /**
   * A file whose `.lock` sibling guards `account` across processes (see
   * `ServerCredentials.exclusive`). Without it (memory) records are
   * exclusive within this process only.
   */
  lockTarget?(account: string): string;
}

/** Keeps credentials in this process only: tests, and the `memory` setting. */
export function createMemoryCredentialStore(): CredentialStore {
  const values = new Map<string, string>();
  return {
    kind: "memory",
    get: async (account) => values.get(account),
    set: async (account, value) => {
      values.set(account, value);
    },
    delete: async (account) => values.delete(account),
  };
}
