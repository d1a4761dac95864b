/**
 * Reads, never writes, what pi-mcp-adapter 2.x (last 2.36) saved for a
 * server, in 2.36's own layout:
 *
 * - OS keyring (2.x wrote through @napi-rs/keyring; read here with the OS's
 *   own tool, `v2-keyring-cli.ts`): service `pi-mcp-adapter.oauth` (OAuth record) or
 *   `pi-mcp-adapter.bearer` (`/mcp token` record), account
 *   `sha256-<hex sha256 of the server name>`. A long value is a manifest
 *   `{"__piMcpAdapter…Chunked":1,"chunkCount":n,"chunkDigest":d}` whose parts
 *   are `<account>.chunk.<d>.<i>`; `d` is the first 16 hex of the whole
 *   value's sha256, checked here.
 * - 2.x's `oauthCredentialStore: "encrypted-file"`: OAuth records in
 *   `<Pi agent dir>/mcp-oauth-encrypted/<account>/credentials.json`, AES-256-GCM
 *   under `PI_MCP_ADAPTER_OAUTH_FILE_KEY` (the variable this version uses too).
 *
 * A store that cannot be read throws `V2StoreUnavailable` with a reason that
 * names no secret; the keyring is given up for the rest of the run after its
 * first such failure, so a locked keyring costs one wait, not one per server.
 */
import { createDecipheriv, createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { keyringFailure } from "./keyring-store.js";
import type { V2RecordKind } from "./v2-import-marker.js";
import { loadCliKeyring, type V2KeyringGet } from "./v2-keyring-cli.js";
import { noSessionBus, v2EncryptedFileDir } from "./v2-sources.js";

export type { V2RecordKind } from "./v2-import-marker.js";

const SERVICES: Record<V2RecordKind, string> = {
  oauth: "pi-mcp-adapter.oauth",
  bearer: "pi-mcp-adapter.bearer",
};
const CHUNK_KEYS: Record<V2RecordKind, string> = {
  oauth: "__piMcpAdapterOAuthChunked",
  bearer: "__piMcpAdapterBearerChunked",
};
const FILE_AAD = "pi-mcp-adapter.oauth.encrypted-file.v1";
const FILE_KEY_ENV = "PI_MCP_ADAPTER_OAUTH_FILE_KEY";
const MAX_CHUNKS = 64;
const NO_BUS =
  "no D-Bus session bus, so 2.x's entries in the OS keyring (Secret Service) cannot be read; " +
  "start Pi inside a desktop session or dbus-run-session with an unlocked gnome-keyring";

/**
 * A 2.x store could not be read (no binding, no D-Bus, locked, no key); `message` names no secret.
 * `found`: a record of 2.x is there (its encrypted file) but cannot be read without something the
 * user can give (the key); otherwise nothing says 2.x ever saved anything here.
 */
export class V2StoreUnavailable extends Error {
  constructor(
    message: string,
    readonly found = false,
  ) {
    super(message);
  }
}

/** A 2.x value was there but is not what 2.x writes (bad JSON, missing chunk, wrong key). */
export class V2EntryUnreadable extends Error {}

export interface V2StoreReaderOptions {
  env?: NodeJS.ProcessEnv;
  /** What reads the keyring; default `secret-tool` (Linux) or `security` (macOS), see `v2-keyring-cli.ts`. */
  loadKeyring?: () => Promise<V2KeyringGet>;
  /** Upper bound for one keyring read, so a prompt nobody answers does not hang the start. */
  timeoutMs?: number;
}

export interface V2Entry {
  payload: string;
  from: "OS keyring" | "encrypted file";
}

export interface V2StoreReader {
  read(kind: V2RecordKind, server: string): Promise<V2Entry | undefined>;
}

export function v2Account(server: string): string {
  return `sha256-${createHash("sha256").update(server, "utf8").digest("hex")}`;
}

const digestOf = (value: string) => createHash("sha256").update(value, "utf8").digest("hex").slice(0, 16);

export function createV2StoreReader(options: V2StoreReaderOptions = {}): V2StoreReader {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let keyring: Promise<V2KeyringGet> | undefined;
  let keyringDown: V2StoreUnavailable | undefined;

  const keyringGet = async (service: string, account: string): Promise<string | undefined> => {
    // Without a session bus the Secret Service cannot be asked: say so without starting the tool, and never
    // let it read as "nothing stored", which would settle a server for good.
    if (!options.loadKeyring && noSessionBus(env)) keyringDown ??= new V2StoreUnavailable(NO_BUS);
    if (keyringDown) throw keyringDown;
    let get: V2KeyringGet;
    try {
      keyring ??= (options.loadKeyring ?? (() => loadCliKeyring(timeoutMs)))();
      get = await keyring;
    } catch (error) {
      keyringDown = new V2StoreUnavailable(
        `2.x's keyring entries cannot be read here: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw keyringDown;
    }
    try {
      return await get(service, account);
    } catch (error) {
      keyringDown = new V2StoreUnavailable(
        keyringFailure(error, "read 2.x's saved logins from the OS keyring").message,
      );
      throw keyringDown;
    }
  };

  async function fromKeyring(kind: V2RecordKind, account: string): Promise<string | undefined> {
    const service = SERVICES[kind];
    const head = await keyringGet(service, account);
    if (head === undefined) return undefined;
    const manifest = chunkManifest(kind, head);
    if (!manifest) return head;
    const parts: string[] = [];
    for (let i = 0; i < manifest.chunkCount; i++) {
      const part = await keyringGet(service, `${account}.chunk.${manifest.chunkDigest}.${i}`);
      if (part === undefined)
        throw new V2EntryUnreadable(`part ${i + 1} of ${manifest.chunkCount} is missing`);
      parts.push(part);
    }
    const whole = parts.join("");
    if (digestOf(whole) !== manifest.chunkDigest)
      throw new V2EntryUnreadable("its parts do not fit together");
    return whole;
  }

  async function fromEncryptedFile(account: string): Promise<string | undefined> {
    const file = path.join(v2EncryptedFileDir(env), account, "credentials.json");
    let raw: string;
    try {
      raw = await readFile(file, "utf8");
    } catch {
      return undefined;
    }
    const encoded = env[FILE_KEY_ENV];
    const key = encoded ? Buffer.from(encoded, "base64") : undefined;
    if (key?.length !== 32) {
      throw new V2StoreUnavailable(
        `2.x's encrypted credential file ${file} needs ${FILE_KEY_ENV} (base64 of the 32-byte key 2.x used)`,
        true,
      );
    }
    try {
      const envelope = JSON.parse(raw) as Record<string, string>;
      if (envelope.algorithm !== "aes-256-gcm") throw new Error("unknown envelope");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(envelope.iv ?? "", "base64"));
      decipher.setAAD(Buffer.from(`${FILE_AAD}\0${account}`, "utf8"));
      decipher.setAuthTag(Buffer.from(envelope.tag ?? "", "base64"));
      const plain = Buffer.concat([
        decipher.update(Buffer.from(envelope.ciphertext ?? "", "base64")),
        decipher.final(),
      ]);
      return plain.toString("utf8");
    } catch {
      throw new V2EntryUnreadable(`${file} does not decrypt with ${FILE_KEY_ENV}`);
    }
  }

  return {
    async read(kind, server) {
      const account = v2Account(server);
      let keyringError: unknown;
      try {
        const payload = await fromKeyring(kind, account);
        if (payload !== undefined) return { payload, from: "OS keyring" };
      } catch (error) {
        if (!(error instanceof V2StoreUnavailable)) throw error;
        keyringError = error;
      }
      // 2.x kept bearer tokens in the keyring only.
      const payload = kind === "oauth" ? await fromEncryptedFile(account) : undefined;
      if (payload !== undefined) return { payload, from: "encrypted file" };
      if (keyringError) throw keyringError;
      return undefined;
    },
  };
}

function chunkManifest(
  kind: V2RecordKind,
  head: string,
): { chunkCount: number; chunkDigest: string } | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(head) as Record<string, unknown>;
  } catch {
    return undefined; // not a manifest; the importer reports a value that does not parse
  }
  const { chunkCount, chunkDigest } = parsed ?? {};
  if (parsed?.[CHUNK_KEYS[kind]] !== 1) return undefined;
  if (!Number.isInteger(chunkCount) || (chunkCount as number) < 1 || (chunkCount as number) > MAX_CHUNKS) {
    throw new V2EntryUnreadable("its part count is not valid");
  }
  if (typeof chunkDigest !== "string" || !/^[a-f0-9]{16}$/.test(chunkDigest)) {
    throw new V2EntryUnreadable("its part digest is not valid");
  }
  return { chunkCount: chunkCount as number, chunkDigest };
}
