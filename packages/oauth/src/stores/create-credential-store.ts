/**
 * Picks the credential store for the `oauthCredentialStore` setting.
 * There is deliberately no plaintext option.
 */
import path from "node:path";
import { z } from "zod";
import { type CredentialStore, createMemoryCredentialStore } from "./credential-store.js";
import { createEncryptedFileStore } from "./encrypted-file-store.js";
import { createKeyringStore, type KeyringStoreOptions } from "./keyring-store.js";
import { defaultEncryptedFileDir } from "./oauth-dir.js";

export const CredentialStoreSettingSchema = z.enum(["keyring", "encrypted-file", "memory"]);
export type CredentialStoreSetting = z.infer<typeof CredentialStoreSettingSchema>;

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
