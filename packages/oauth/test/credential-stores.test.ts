import { randomBytes } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import {
  createCredentialStore,
  createEncryptedFileStore,
  createKeyringStore,
  createMemoryCredentialStore,
  defaultEncryptedFileDir,
  type KeytarLike,
  OAuthError,
} from "../src/index.js";
import { FILE_KEY_ENV } from "../src/stores/encrypted-file-store.js";
import { keyringFailure } from "../src/stores/keyring-store.js";
import { ServerCredentials } from "../src/stores/server-credentials.js";

const key = () => randomBytes(32).toString("base64");

describe("memory store", () => {
  it("keeps, replaces and deletes values", async () => {
    const store = createMemoryCredentialStore();
    expect(await store.get("docs")).toBeUndefined();
    await store.set("docs", "one");
    await store.set("docs", "two");
    expect(await store.get("docs")).toBe("two");
    expect(await store.delete("docs")).toBe(true);
    expect(await store.get("docs")).toBeUndefined();
  });
});

describe("encrypted-file store", () => {
  it("writes a 0600 JWE file that does not contain the secret, and reads it back", async () => {
    await using dir = await createTempDir();
    const env = { [FILE_KEY_ENV]: key() };
    const store = createEncryptedFileStore({ dir: dir.join("oauth"), env });
    await store.set("docs", '{"access_token":"very-secret-token"}');
    const [file] = await readdir(dir.join("oauth"));
    const text = await readFile(dir.join("oauth", file as string), "utf8");
    expect(text).not.toContain("very-secret-token");
    expect(text.split(".")).toHaveLength(5); // compact JWE
    expect((await stat(dir.join("oauth", file as string))).mode & 0o777).toBe(0o600);
    expect((await stat(dir.join("oauth"))).mode & 0o777).toBe(0o700);
    expect(await store.get("docs")).toBe('{"access_token":"very-secret-token"}');
    expect(await store.get("other")).toBeUndefined();
    expect(await store.delete("docs")).toBe(true);
    expect(await store.delete("docs")).toBe(false);
  });

  it("holds a record across processes through its lock file, and a write from inside the hold does not wait on itself", async () => {
    await using dir = await createTempDir();
    const store = createEncryptedFileStore({ dir: dir.join("oauth"), env: { [FILE_KEY_ENV]: key() } });
    const credentials = new ServerCredentials(store, "docs", "https://docs.example.com/mcp");
    const during = await credentials.exclusive(async (held) => {
      // A nested update (as a DPoP key saved during a refresh) finishes while the hold lasts.
      await credentials.update((current) => ({ ...current, dpopKey: { kty: "EC" } }));
      await held.update((current) => ({ ...current, obtainedAt: 1 }));
      return readdir(dir.join("oauth"));
    });
    expect(during.filter((f) => f.endsWith(".jwe.lock"))).toHaveLength(1);
    expect(await credentials.load()).toMatchObject({ dpopKey: { kty: "EC" }, obtainedAt: 1 });
    expect((await readdir(dir.join("oauth"))).filter((f) => f.endsWith(".lock"))).toEqual([]);
  });

  it("accepts hex and base64url keys", async () => {
    await using dir = await createTempDir();
    const raw = randomBytes(32);
    for (const encoded of [raw.toString("hex"), raw.toString("base64url")]) {
      const store = createEncryptedFileStore({ dir: dir.path, env: { [FILE_KEY_ENV]: encoded } });
      await store.set("a", "value");
      expect(await store.get("a")).toBe("value");
    }
  });

  it("fails with a clear error when the key is missing, never writing plaintext", async () => {
    await using dir = await createTempDir();
    const store = createEncryptedFileStore({ dir: dir.join("oauth"), env: {} });
    const error = await store.set("docs", "secret").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).code).toBe("file_key_missing");
    expect((error as Error).message).toContain(FILE_KEY_ENV);
    await expect(readdir(dir.join("oauth"))).rejects.toThrow(/ENOENT/);
  });

  it("rejects a key of the wrong length without echoing it", async () => {
    await using dir = await createTempDir();
    const store = createEncryptedFileStore({ dir: dir.path, env: { [FILE_KEY_ENV]: "c2hvcnQta2V5" } });
    const error = (await store.get("docs").catch((e: unknown) => e)) as OAuthError;
    expect(error.code).toBe("file_key_invalid");
    expect(error.message).not.toContain("c2hvcnQta2V5");
  });

  it("says the key is wrong when another key wrote the file", async () => {
    await using dir = await createTempDir();
    await createEncryptedFileStore({ dir: dir.path, env: { [FILE_KEY_ENV]: key() } }).set("docs", "secret");
    const other = createEncryptedFileStore({ dir: dir.path, env: { [FILE_KEY_ENV]: key() } });
    const error = (await other.get("docs").catch((e: unknown) => e)) as OAuthError;
    expect(error.code).toBe("file_key_invalid");
    expect(error.message).toMatch(/differs from the one that wrote the file/);
  });
});

describe("keyring store", () => {
  it("fails closed with install advice when keytar cannot be loaded", async () => {
    const store = createKeyringStore({
      loadKeytar: () => Promise.reject(new Error("Cannot find module 'keytar'")),
    });
    const error = (await store.set("docs", "secret").catch((e: unknown) => e)) as OAuthError;
    expect(error.code).toBe("store_unavailable");
    expect(error.message).toMatch(/keytar/);
    expect(error.message).toMatch(/encrypted-file/);
  });

  it("maps the Secret Service failures to messages saying what to do", () => {
    const noBus = keyringFailure(new Error("Cannot autolaunch D-Bus without X11 $DISPLAY"), "save");
    expect(noBus.code).toBe("store_unavailable");
    expect(noBus.message).toMatch(/D-Bus/);
    const noService = keyringFailure(
      new Error("The name org.freedesktop.secrets was not provided by any .service files"),
      "save",
    );
    expect(noService.message).toMatch(/gnome-keyring/);
    const locked = keyringFailure(new Error("Cannot create an item in a locked collection"), "save");
    expect(locked.code).toBe("store_locked");
    expect(locked.message).toMatch(/unlock/i);
  });

  it("splits long values into chunks and removes them all on delete", async () => {
    // An in-process keytar stand-in: the real Secret Service runs in apps/e2e.
    const entries = new Map<string, string>();
    const keytar: KeytarLike = {
      getPassword: async (s, a) => entries.get(`${s}/${a}`) ?? null,
      setPassword: async (s, a, p) => {
        if (p.length > 2048) throw new Error("too long");
        entries.set(`${s}/${a}`, p);
      },
      deletePassword: async (s, a) => entries.delete(`${s}/${a}`),
    };
    const store = createKeyringStore({ loadKeytar: async () => keytar });
    const long = "x".repeat(5000);
    await store.set("docs", long);
    expect(entries.size).toBe(4);
    expect(await store.get("docs")).toBe(long);
    await store.set("docs", "short");
    expect(entries.size).toBe(1);
    await store.delete("docs");
    expect(entries.size).toBe(0);
  });

  it("puts encrypted files in Pi's agent dir", () => {
    expect(defaultEncryptedFileDir({ PI_CODING_AGENT_DIR: "/tmp/agent" }, "/home/u")).toBe(
      "/tmp/agent/mcp-adapter/oauth",
    );
    expect(defaultEncryptedFileDir({}, "/home/u")).toBe("/home/u/.pi/agent/mcp-adapter/oauth");
    // A leading `~` is the home, as the rest of the adapter reads this variable (not a folder named "~").
    expect(defaultEncryptedFileDir({ PI_CODING_AGENT_DIR: "~/agent" }, "/home/u")).toBe(
      "/home/u/agent/mcp-adapter/oauth",
    );
    expect(defaultEncryptedFileDir({ PI_CODING_AGENT_DIR: "~" }, "/home/u")).toBe(
      "/home/u/mcp-adapter/oauth",
    );
  });

  it("is what createCredentialStore returns by default", () => {
    expect(createCredentialStore().kind).toBe("keyring");
    expect(createCredentialStore({ kind: "memory" }).kind).toBe("memory");
  });
});
