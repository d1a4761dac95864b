/**
 * The default store: the OS credential store through keytar (libsecret on
 * Linux, Keychain on macOS, Credential Manager on Windows). keytar is an
 * optional native dependency loaded on first use, so importing this package
 * stays cheap and works where keytar is not built. Every failure fails
 * closed with a message saying what to do; values longer than one keyring
 * entry comfortably holds are split into numbered chunks.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { CredentialStore } from "./credential-store.js";
import { OAuthError } from "./errors.js";
import { defaultEncryptedFileDir } from "./oauth-dir.js";
import { PROBE_ACCOUNT } from "./store-problems.js";

/** The part of keytar this store uses. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeyringStoreOptions {
  /** Keyring service name; entries are `<service>` / `<account>`. */
  service?: string;
  /** Loads keytar; defaults to a dynamic `import("keytar")`. */
  loadKeytar?: () => Promise<KeytarLike>;
  /** Upper bound for one keyring call, so a prompt nobody answers fails closed. */
  timeoutMs?: number;
  /**
   * Directory of the lock files that make a record's read-modify-write
   * exclusive across processes (default `<agent dir>/mcp-adapter/oauth/keyring-locks`).
   */
  lockDir?: string;
}

export const DEFAULT_KEYRING_SERVICE = "pi-mcp-adapter";
const CHUNK_SIZE = 2000;
const CHUNK_MARKER = "pi-mcp-adapter-chunks:";

const FALLBACK_HINT = 'or set oauthCredentialStore to "encrypted-file" with PI_MCP_ADAPTER_OAUTH_FILE_KEY';

async function importKeytar(): Promise<KeytarLike> {
  const name = "keytar";
  const loaded = (await import(name)) as KeytarLike & { default?: KeytarLike };
  return loaded.default ?? loaded;
}

/** Turns a keytar/libsecret failure into a message the user can act on. */
export function keyringFailure(error: unknown, action: string): OAuthError {
  const text = error instanceof Error ? error.message : String(error);
  if (/autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Failed to connect to socket|dbus/i.test(text)) {
    return new OAuthError(
      "store_unavailable",
      `Cannot ${action}: no D-Bus session bus, so the OS keyring (Secret Service) is unreachable. ` +
        `Run inside a desktop session or dbus-run-session with an unlocked gnome-keyring, ${FALLBACK_HINT}`,
      { cause: error },
    );
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|was not provided by any \.service/i.test(text)) {
    return new OAuthError(
      "store_unavailable",
      `Cannot ${action}: no Secret Service is running. Install and start gnome-keyring (libsecret) ` +
        `and unlock it, ${FALLBACK_HINT}`,
      { cause: error },
    );
  }
  if (/locked|prompt|dismissed|unlock|collection\/login|Object does not exist/i.test(text)) {
    return new OAuthError(
      "store_locked",
      `Cannot ${action}: the OS keyring is locked or has no login collection. Unlock it (for example ` +
        `gnome-keyring-daemon --unlock), ${FALLBACK_HINT}`,
      { cause: error },
    );
  }
  return new OAuthError(
    "store_failed",
    `Cannot ${action}: the OS keyring reported an error, ${FALLBACK_HINT}`,
    {
      cause: error,
    },
  );
}

export function createKeyringStore(options: KeyringStoreOptions = {}): CredentialStore {
  const service = options.service ?? DEFAULT_KEYRING_SERVICE;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const lockDir = options.lockDir ?? path.join(defaultEncryptedFileDir(), "keyring-locks");
  let keytar: Promise<KeytarLike> | undefined;

  const load = () => {
    keytar ??= (options.loadKeytar ?? importKeytar)().catch((error: unknown) => {
      keytar = undefined;
      throw new OAuthError(
        "store_unavailable",
        "The OS keyring store needs the optional dependency keytar, which is not installed or not built here. " +
          `On Linux install libsecret-1-dev and run \`npm rebuild keytar\`, ${FALLBACK_HINT}`,
        { cause: error },
      );
    });
    return keytar;
  };

  async function call<T>(action: string, run: (k: KeytarLike) => Promise<T>): Promise<T> {
    const k = await load();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("keyring did not answer: it may be locked and waiting for a prompt")),
        timeoutMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([run(k), timeout]);
    } catch (error) {
      throw error instanceof OAuthError ? error : keyringFailure(error, action);
    } finally {
      clearTimeout(timer);
    }
  }

  const chunkAccount = (account: string, index: number) => `${account}#${index}`;

  async function removeChunks(k: KeytarLike, account: string, head: string | null): Promise<void> {
    if (!head?.startsWith(CHUNK_MARKER)) return;
    const count = Number(head.slice(CHUNK_MARKER.length));
    for (let i = 0; i < count; i++) await k.deletePassword(service, chunkAccount(account, i));
  }

  return {
    kind: "keyring",
    lockTarget: (account) =>
      path.join(lockDir, createHash("sha256").update(`${service}\n${account}`).digest("hex").slice(0, 32)),
    get: (account) =>
      call("read OAuth credentials from the OS keyring", async (k) => {
        const head = await k.getPassword(service, account);
        if (head === null) return undefined;
        if (!head.startsWith(CHUNK_MARKER)) return head;
        const count = Number(head.slice(CHUNK_MARKER.length));
        const parts: string[] = [];
        for (let i = 0; i < count; i++) {
          const part = await k.getPassword(service, chunkAccount(account, i));
          if (part === null) {
            throw new OAuthError(
              "store_failed",
              `OAuth credentials for "${account}" in the OS keyring are incomplete; log in again`,
            );
          }
          parts.push(part);
        }
        return parts.join("");
      }),
    set: (account, value) =>
      call("save OAuth credentials to the OS keyring", async (k) => {
        await removeChunks(k, account, await k.getPassword(service, account));
        if (value.length <= CHUNK_SIZE) {
          await k.setPassword(service, account, value);
          return;
        }
        const count = Math.ceil(value.length / CHUNK_SIZE);
        for (let i = 0; i < count; i++) {
          await k.setPassword(
            service,
            chunkAccount(account, i),
            value.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
          );
        }
        await k.setPassword(service, account, `${CHUNK_MARKER}${count}`);
      }),
    delete: (account) =>
      call("delete OAuth credentials from the OS keyring", async (k) => {
        const head = await k.getPassword(service, account);
        await removeChunks(k, account, head);
        return k.deletePassword(service, account);
      }),
    // A locked keyring answers reads with null, so only a write shows it.
    check: () =>
      call("save OAuth credentials to the OS keyring", async (k) => {
        await k.setPassword(service, PROBE_ACCOUNT, "ok");
        await k.deletePassword(service, PROBE_ACCOUNT);
      }),
  };
}
