/**
 * Picks the credential store for the `oauthCredentialStore` setting.
 * There is deliberately no plaintext option.
 */
import { homedir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { type CredentialStore, createMemoryCredentialStore } from "./credential-store.js";
import { createEncryptedFileStore } from "./encrypted-file-store.js";
import { createKeyringStore, type KeyringStoreOptions } from "./keyring-store.js";

export const CredentialStoreSettingSchema = z.enum(["keyring", "encrypted-file", "memory"]);
export type CredentialStoreSetting = z.infer<typeof CredentialStoreSettingSchema>;

export interface CreateCredentialStoreOptions {
  kind?: CredentialStoreSetting;
  /** Directory for `encrypted-file` (default `~/.pi/agent/mcp-adapter/oauth`). */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  keyring?: KeyringStoreOptions;
}

export function defaultEncryptedFileDir(home = homedir()): string {
  return path.join(home, ".pi", "agent", "mcp-adapter", "oauth");
}

export function createCredentialStore(options: CreateCredentialStoreOptions = {}): CredentialStore {
  switch (options.kind ?? "keyring") {
    case "memory":
      return createMemoryCredentialStore();
    case "encrypted-file":
      return createEncryptedFileStore({ dir: options.dir ?? defaultEncryptedFileDir(), env: options.env });
    case "keyring":
      return createKeyringStore(options.keyring);
  }
}
