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
  /** Directory for `encrypted-file` (default `defaultEncryptedFileDir(env)`). */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  keyring?: KeyringStoreOptions;
}

/** `<Pi agent dir>/mcp-adapter/oauth`: `PI_CODING_AGENT_DIR` when set, else `~/.pi/agent`. */
export function defaultEncryptedFileDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const agentDir = env.PI_CODING_AGENT_DIR || path.join(home, ".pi", "agent");
  return path.join(agentDir, "mcp-adapter", "oauth");
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
      return createKeyringStore(options.keyring);
  }
}
