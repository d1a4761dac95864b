/**
 * The credential store the token API uses when a caller names none — the
 * one the adapter was configured with (`oauthCredentialStore`), seen by every
 * copy of this package, not only the copy the adapter loaded. A cooperating
 * Pi extension often bundles its own copy of `pi-mcp-adapter`, and a
 * module-level variable in one copy is invisible to the other: it would read
 * the OS keyring while the adapter writes the encrypted file.
 *
 * Two ways the choice travels:
 * - in one process, the store object itself, under a global `Symbol.for` key
 *   every copy reads (so even a `memory` store is shared);
 * - to other processes (a script, a second tool), the store's kind in
 *   `<agent dir>/mcp-adapter/oauth/default-store.json`, written by the
 *   adapter when it starts. The key (`PI_MCP_ADAPTER_OAUTH_FILE_KEY`) is
 *   never written: such a process needs it in its own environment.
 *
 * Without either, the default is the OS keyring. Passing `store` to a token
 * API call always wins.
 */
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "@pi-mcp-adapter/core";
import { createCredentialStore, isCredentialStoreSetting } from "./create-credential-store.js";
import type { CredentialStore, CredentialStoreKind } from "./credential-store.js";
import { defaultEncryptedFileDir } from "./oauth-dir.js";

const SHARED = Symbol.for("pi-mcp-adapter.oauth.default-credential-store");
export const DEFAULT_STORE_FILE = "default-store.json";

type SharedSlot = { [SHARED]?: CredentialStore };
const slot = globalThis as SharedSlot;
const fromFile = new Map<string, CredentialStore>();

/** The adapter calls this with its configured store, so every copy of this package in the process uses it. */
export function setDefaultCredentialStore(store: CredentialStore | undefined): void {
  slot[SHARED] = store;
}

/**
 * The store for token API calls without `store`: the one set in this process
 * (by any copy), else the kind the adapter recorded in the agent dir, else
 * the OS keyring.
 */
export function getDefaultCredentialStore(env: NodeJS.ProcessEnv = process.env): CredentialStore {
  const shared = slot[SHARED];
  if (shared) return shared;
  const kind = recordedKind(env) ?? "keyring";
  const key = `${kind}\n${defaultEncryptedFileDir(env)}`;
  let store = fromFile.get(key);
  if (!store) {
    store = createCredentialStore({ kind, env });
    fromFile.set(key, store);
  }
  return store;
}

/**
 * Records `kind` in the agent dir for other processes. The default (the
 * keyring) is recorded by removing the file; a `memory` store cannot be
 * shared that way and changes nothing. Throws the file system's error; the
 * adapter reports it as a warning.
 */
export async function recordDefaultCredentialStore(
  kind: CredentialStoreKind,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (kind === "memory" || (recordedKind(env) ?? "keyring") === kind) return;
  const file = path.join(defaultEncryptedFileDir(env), DEFAULT_STORE_FILE);
  if (kind === "keyring") await rm(file, { force: true });
  else
    await writeFileAtomic(file, `${JSON.stringify({ version: 1, kind })}\n`, { mode: 0o600, dirMode: 0o700 });
}

function recordedKind(env: NodeJS.ProcessEnv): CredentialStoreKind | undefined {
  try {
    const text = readFileSync(path.join(defaultEncryptedFileDir(env), DEFAULT_STORE_FILE), "utf8");
    const kind = (JSON.parse(text) as { kind?: unknown }).kind;
    return isCredentialStoreSetting(kind) && kind !== "memory" ? kind : undefined;
  } catch {
    return undefined; // none recorded, or unreadable: the documented default
  }
}
