/**
 * The default store: the OS credential store through keytar (libsecret on
 * Linux, Keychain on macOS, Credential Manager on Windows). The binding is
 * `@github/keytar`, GitHub's maintained fork of the archived `keytar`: the
 * same API and the same entries (service `pi-mcp-adapter`, account = server
 * name), with prebuilt binaries inside the npm package, so no compiler or
 * libsecret headers are needed at install time. A plain `keytar` a user
 * installed is used when the fork is absent. It is an optional dependency
 * loaded on first use, so importing this package stays cheap and works where
 * no binding loads. Every failure fails
 * closed with a message saying what to do; values longer than one keyring
 * entry comfortably holds are split into numbered chunks.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { OAuthError } from "../errors.js";
import type { CredentialStore } from "./credential-store.js";
import type { KeytarLike } from "./keytar-like.js";
import { libsecretLoads } from "./libsecret-probe.js";
import { defaultEncryptedFileDir } from "./oauth-dir.js";
import { freshSessionKeytar, type SessionKeyringOptions, sessionKeyringRevoked } from "./session-keyring.js";
import { PROBE_ACCOUNT } from "./store-problems.js";

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
  /**
   * Linux: when a keyring call fails and this process's session keyring is
   * revoked, retry through `keyctl session -` (see `session-keyring.ts`).
   * `false` turns that off.
   */
  sessionKeyring?: SessionKeyringOptions | false;
}

export const DEFAULT_KEYRING_SERVICE = "pi-mcp-adapter";
const CHUNK_SIZE = 2000;
const CHUNK_MARKER = "pi-mcp-adapter-chunks:";

const FALLBACK_HINT = 'or set oauthCredentialStore to "encrypted-file" with PI_MCP_ADAPTER_OAUTH_FILE_KEY';

/** The bindings tried, in order: GitHub's maintained fork, then the archived original. */
const KEYTAR_PACKAGES = ["@github/keytar", "keytar"];

async function importKeytar(): Promise<KeytarLike> {
  let first: unknown;
  for (const name of KEYTAR_PACKAGES) {
    try {
      const loaded = (await import(name)) as KeytarLike & { default?: KeytarLike };
      return loaded.default ?? loaded;
    } catch (error) {
      first ??= error;
    }
  }
  throw first;
}

/**
 * What to do when the binding would not load: a missing libsecret at run
 * time (named in the error by the original keytar, found by asking the
 * loader for the fork, whose error does not say), or no binding at all.
 */
export function loadFailureHint(error: unknown, libsecretFound: () => boolean = libsecretLoads): string {
  const text = error instanceof Error ? error.message : String(error);
  const absent = /Cannot find (package|module) '(@github\/)?keytar'/.test(text);
  if (/libsecret-1\.so/.test(text) || (!absent && !libsecretFound())) {
    return "Its prebuilt binary needs libsecret at run time: install it (Debian/Ubuntu: apt install libsecret-1-0)";
  }
  return "Reinstall pi-mcp-adapter with optional dependencies (npm install --include=optional)";
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
        "The OS keyring store needs the optional dependency @github/keytar, which is not installed or " +
          `did not load here. ${loadFailureHint(error)}, ${FALLBACK_HINT}`,
        { cause: error },
      );
    });
    return keytar;
  };

  let recovered = false;

  async function call<T>(action: string, run: (k: KeytarLike) => Promise<T>): Promise<T> {
    try {
      return await bounded(run(await load()));
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      const recovery = options.sessionKeyring;
      if (recovered || recovery === false || !(await sessionKeyringRevoked(recovery))) {
        throw keyringFailure(error, action);
      }
      // From now on every call of this store goes through a helper with a fresh session keyring.
      const helper = freshSessionKeytar(recovery);
      try {
        const result = await bounded(run(helper));
        recovered = true;
        keytar = Promise.resolve(helper);
        return result;
      } catch (retryError) {
        if (retryError instanceof OAuthError) throw retryError;
        throw new OAuthError(
          "store_unavailable",
          `Cannot ${action}: this process inherited a revoked session keyring (a tmux server that outlived ` +
            "its login session passes one on), and retrying through `keyctl session -` failed " +
            `(${(retryError as Error).message}). Start Pi from a new login shell, ${FALLBACK_HINT}`,
          { cause: retryError },
        );
      }
    }
  }

  async function bounded<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("keyring did not answer: it may be locked and waiting for a prompt")),
        timeoutMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([work, timeout]);
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
