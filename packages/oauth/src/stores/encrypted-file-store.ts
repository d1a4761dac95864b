/**
 * `oauthCredentialStore: "encrypted-file"`: one JWE file per account
 * (`dir` + `A256GCM`, jose) in a private directory, written atomically with
 * mode 0600. The 256-bit key comes from `PI_MCP_ADAPTER_OAUTH_FILE_KEY`
 * (base64, base64url or hex). A missing or wrong key is an error, never a
 * reason to write or read plaintext. `<file>.lock` guards each record's
 * read-modify-write across processes.
 */
import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "@pi-mcp-adapter/core";

// jose loads with the first read or write of this store, not when the package loads.
const loadJose = () => import("jose");

import { OAuthError } from "../errors.js";
import type { CredentialStore } from "./credential-store.js";

export const FILE_KEY_ENV = "PI_MCP_ADAPTER_OAUTH_FILE_KEY";

export interface EncryptedFileStoreOptions {
  /** Directory holding the `.jwe` files (created 0700). */
  dir: string;
  /** Environment to read the key from; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Parses the key, or throws a message saying how to make one (never echoing the value). */
export function parseFileKey(env: NodeJS.ProcessEnv = process.env): Uint8Array {
  const raw = env[FILE_KEY_ENV]?.trim();
  if (!raw) {
    throw new OAuthError(
      "file_key_missing",
      `oauthCredentialStore "encrypted-file" needs ${FILE_KEY_ENV}: set it to 32 random bytes in base64 ` +
        `(for example: openssl rand -base64 32), or choose the OS keyring store`,
    );
  }
  const candidates = [
    /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : undefined,
    Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64"),
  ];
  const key = candidates.find((buffer) => buffer?.length === 32);
  if (!key) {
    throw new OAuthError(
      "file_key_invalid",
      `${FILE_KEY_ENV} must encode exactly 32 bytes (base64, base64url or 64 hex digits); the value set has another length`,
    );
  }
  return new Uint8Array(key);
}

export function createEncryptedFileStore(options: EncryptedFileStoreOptions): CredentialStore {
  const env = options.env ?? process.env;
  const fileOf = (account: string) =>
    path.join(options.dir, `${createHash("sha256").update(account).digest("hex").slice(0, 32)}.jwe`);

  return {
    kind: "encrypted-file",
    lockTarget: fileOf,
    async get(account) {
      const key = parseFileKey(env);
      const file = fileOf(account);
      let jwe: string;
      try {
        jwe = (await readFile(file, "utf8")).trim();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw new OAuthError("store_failed", `Cannot read OAuth credential file ${file}`, { cause: error });
      }
      let plaintext: Uint8Array;
      let kid: string | undefined;
      try {
        const { compactDecrypt } = await loadJose();
        const result = await compactDecrypt(jwe, key);
        plaintext = result.plaintext;
        kid = result.protectedHeader.kid;
      } catch {
        throw new OAuthError(
          "file_key_invalid",
          `Cannot decrypt OAuth credentials in ${file} with ${FILE_KEY_ENV}: the key differs from the one that ` +
            `wrote the file, or the file is damaged. Restore the old key, or delete the file and log in again`,
        );
      }
      if (kid !== account) {
        throw new OAuthError("file_corrupt", `OAuth credential file ${file} belongs to another server entry`);
      }
      return new TextDecoder().decode(plaintext);
    },
    async set(account, value) {
      const key = parseFileKey(env);
      const { CompactEncrypt } = await loadJose();
      const jwe = await new CompactEncrypt(new TextEncoder().encode(value))
        .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid: account })
        .encrypt(key);
      const file = fileOf(account);
      try {
        await writeFileAtomic(file, `${jwe}\n`, { mode: 0o600, dirMode: 0o700 });
      } catch (error) {
        throw new OAuthError("store_failed", `Cannot write OAuth credential file ${file}`, { cause: error });
      }
    },
    async delete(account) {
      const file = fileOf(account);
      try {
        await rm(file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw new OAuthError("store_failed", `Cannot delete OAuth credential file ${file}`, { cause: error });
      }
    },
  };
}
