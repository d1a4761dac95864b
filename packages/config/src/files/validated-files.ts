/**
 * Which config files validated cleanly, by identity only: per absolute path,
 * the size, modification time and SHA-256 of the bytes that validated, under
 * the version of the rules they were checked by (config's and core's package
 * versions). A file whose bytes still have that identity is parsed without
 * zod (`layers/layer-check.ts`); any other is validated as always. Never a
 * value of the file: no server, header or token reaches this store. It is a
 * user-only file (0600) beside the metadata cache, written atomically; one
 * that is unreadable, corrupt or of another version counts as empty.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { CORE_VERSION, packageVersion, writeFileAtomic } from "@pi-mcp-adapter/core";

export const VALIDATED_CONFIG_FILE = "mcp-config-validated.json";
/** The layout of the store; bumped when it changes. */
const STORE_FORMAT = 1;

/** What a file was when it was read: `ReadStamp` with its hash. */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface ValidatedFiles {
  /** True when `file`'s bytes as read have the identity of a clean validation under these rules. */
  has(file: string, identity: FileIdentity): boolean;
  /** Notes a validation of `file`: its identity when `clean`, else it is forgotten. */
  note(file: string, identity: FileIdentity, clean: boolean): void;
  /** Writes the store when a note changed it; a failed write is ignored (the next start validates again). */
  save(): Promise<void>;
}

declare const __PACKAGE_VERSION__: string | undefined;

const CONFIG_VERSION = packageVersion(
  "@pi-mcp-adapter/config",
  typeof __PACKAGE_VERSION__ === "string" ? __PACKAGE_VERSION__ : undefined,
  import.meta.url,
);

/** The rules a validation followed: this store's format and the versions of config and core (their schemas). */
export function validationRulesVersion(): string {
  return `${STORE_FORMAT} config@${CONFIG_VERSION} core@${CORE_VERSION}`;
}

const isIdentity = (value: unknown): value is FileIdentity =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as FileIdentity).size === "number" &&
  typeof (value as FileIdentity).mtimeMs === "number" &&
  typeof (value as FileIdentity).sha256 === "string";

async function readStore(storeFile: string): Promise<Map<string, FileIdentity>> {
  const files = new Map<string, FileIdentity>();
  try {
    const json = JSON.parse(await readFile(storeFile, "utf8")) as { version?: unknown; files?: unknown };
    if (json?.version !== validationRulesVersion() || typeof json.files !== "object" || json.files === null)
      return files;
    for (const [file, identity] of Object.entries(json.files))
      if (isIdentity(identity)) files.set(file, identity);
  } catch {
    // Missing, unreadable or corrupt: nothing counts as validated.
  }
  return files;
}

export async function openValidatedFiles(storeFile: string): Promise<ValidatedFiles> {
  const files = await readStore(storeFile);
  let changed = false;
  const same = (a: FileIdentity | undefined, b: FileIdentity) =>
    a !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.sha256 === b.sha256;
  return {
    has: (file, identity) => same(files.get(path.resolve(file)), identity),
    note(file, identity, clean) {
      const key = path.resolve(file);
      if (clean && !same(files.get(key), identity)) {
        files.set(key, { size: identity.size, mtimeMs: identity.mtimeMs, sha256: identity.sha256 });
        changed = true;
      } else if (!clean && files.delete(key)) changed = true;
    },
    async save() {
      if (!changed) return;
      changed = false;
      const text = `${JSON.stringify({ version: validationRulesVersion(), files: Object.fromEntries(files) })}\n`;
      await writeFileAtomic(storeFile, text, { mode: 0o600 }).catch(() => {});
    },
  };
}
