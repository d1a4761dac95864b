/**
 * Picks the credential store for the `oauthCredentialStore` setting.
 * There is deliberately no plaintext option.
 */
import path from "node:path";
import { type CredentialStore, createMemoryCredentialStore } from "./credential-store.js";
import { createEncryptedFileStore } from "./encrypted-file-store.js";
import { createKeyringStore, type KeyringStoreOptions } from "./keyring-store.js";
import { defaultEncryptedFileDir } from "./oauth-dir.js";

/** The values of `oauthCredentialStore` (`CredentialStoreSettingSchema` is the same as a zod enum). */
export const CREDENTIAL_STORE_SETTINGS = ["keyring", "encrypted-file", "memory"] as const;
export type CredentialStoreSetting = (typeof CREDENTIAL_STORE_SETTINGS)[number];

/** True for a value `oauthCredentialStore` may take (no zod: the store entry loads none). */
export function isCredentialStoreSetting(value: unknown): value is CredentialStoreSetting {
  return (CREDENTIAL_STORE_SETTINGS as readonly unknown[]).includes(value);
}

export interface CreateCredentialStoreOptions {
  kind?: CredentialStoreSetting;
  /** Directory for `encrypted-file` (default `defaultEncryptedFileDir(env)`). */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  keyring?: KeyringStoreOptions;
}

export function createCredentialStore(options: CreateCredentialStoreOptions = {}): CredentialStore {
  switch (options.kind ?? "keyring") {
    case "memory":
      return createMemoryCredentialStore();
    case "encrypted-file":
      return createEncryptedFileStore({
        dir: options.dir ?? defaultEncryptedFileDir(options.env),
        env: options.env,
      });
    case "keyring":
      return createKeyringStore({
        lockDir: path.join(defaultEncryptedFileDir(options.env), "keyring-locks"),
        ...options.keyring,
      });
  }
}
