/**
 * Binary items of results (resource blobs, audio) decoded into files of one
 * session, so the model gets a path instead of a wall of base64. Bounded per
 * file and per session; everything is removed by `dispose()` at session end.
 */
import { rm, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { OutputGuardError } from "./errors.js";
import { guardFileName } from "./guard-file-names.js";
import { createPrivateDir } from "./private-dir.js";

/** Binary-file directories are made under the temp dir with this prefix (`mkdtemp` adds the rest). */
export const BLOB_DIR_PREFIX = "pi-mcp-adapter-blobs-";

export const DEFAULT_BLOB_LIMITS = {
  maxFileBytes: 10 * 1024 * 1024,
  maxSessionBytes: 100 * 1024 * 1024,
  maxSessionFiles: 10_000,
} as const;

export interface BlobLimits {
  maxFileBytes: number;
  maxSessionBytes: number;
  maxSessionFiles: number;
}

export interface BlobStoreOptions extends Partial<BlobLimits> {
  /** Where the session's private directory is created; default: the system temp dir. */
  root?: string;
}

export interface SavedBlob {
  path: string;
  bytes: number;
}

export interface BlobStore {
  /**
   * Decodes base64 `data` into a new file (mode 0600). Throws an
   * `OutputGuardError` (`blob_too_large`, `blob_session_limit`) when a bound
   * would be passed; nothing is written then.
   */
  save(data: string, options: { nameHint: string; mimeType?: string }): Promise<SavedBlob>;
  /** Bytes and files saved so far in this session. */
  usage(): { bytes: number; files: number };
  /** Removes the session's directory and every file in it. Safe to call twice. */
  dispose(): Promise<void>;
}

export function createBlobStore(options: BlobStoreOptions = {}): BlobStore {
  const limits: BlobLimits = { ...DEFAULT_BLOB_LIMITS, ...definedOnly(options) };
  let dir: Promise<string> | undefined;
  let bytes = 0;
  let files = 0;
  return {
    async save(data, { nameHint, mimeType }) {
      const size = base64DecodedSize(data);
      if (size > limits.maxFileBytes) {
        throw new OutputGuardError(
          "blob_too_large",
          `binary content of ${formatBytes(size)} is larger than the ${formatBytes(limits.maxFileBytes)} limit for one file; it was not saved`,
        );
      }
      if (files + 1 > limits.maxSessionFiles || bytes + size > limits.maxSessionBytes) {
        throw new OutputGuardError(
          "blob_session_limit",
          `binary content of ${formatBytes(size)} was not saved: this session already holds ${files} files, ${formatBytes(bytes)} (limits ${limits.maxSessionFiles} files, ${formatBytes(limits.maxSessionBytes)})`,
        );
      }
      // Reserve before the first await, so concurrent saves cannot pass the bound together.
      bytes += size;
      files += 1;
      try {
        const decoded = Buffer.from(data, "base64");
        const write = async () => {
          dir ??= createPrivateDir(BLOB_DIR_PREFIX, options.root);
          const file = path.join(await dir, guardFileName(nameHint, extensionFor(mimeType)));
          await writeFile(file, decoded, { mode: 0o600, flag: "wx" }).catch(async (error: unknown) => {
            // Never leave a partial file (disk full); "wx" made it ours, so it is ours to remove.
            if ((error as NodeJS.ErrnoException).code !== "EEXIST") await unlink(file).catch(() => {});
            throw error;
          });
          return { path: file, bytes: decoded.length };
        };
        return await write().catch((error: NodeJS.ErrnoException) => {
          // The directory went away (removed as stale after a long quiet spell): make a new one.
          if (error.code !== "ENOENT") throw error;
          dir = undefined;
          return write();
        });
      } catch (error) {
        bytes -= size;
        files -= 1;
        throw error;
      }
    },
    usage: () => ({ bytes, files }),
    async dispose() {
      const current = dir;
      dir = undefined;
      bytes = 0;
      files = 0;
      if (current) await rm(await current, { recursive: true, force: true });
    },
  };
}

/** Size of the bytes a base64 string decodes to, without decoding it. */
export function base64DecodedSize(data: string): number {
  let chars = 0;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    // Whitespace and "=" padding carry no data.
    if (code > 0x20 && code !== 0x3d) chars += 1;
  }
  return Math.floor((chars * 3) / 4);
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "application/zip": "zip",
  "application/json": "json",
  "application/octet-stream": "bin",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "text/plain": "txt",
};

function extensionFor(mimeType: string | undefined): string {
  if (!mimeType) return "bin";
  return EXTENSIONS[mimeType.split(";")[0]!.trim().toLowerCase()] ?? "bin";
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function definedOnly(options: BlobStoreOptions): Partial<BlobLimits> {
  const out: Partial<BlobLimits> = {};
  if (options.maxFileBytes !== undefined) out.maxFileBytes = options.maxFileBytes;
  if (options.maxSessionBytes !== undefined) out.maxSessionBytes = options.maxSessionBytes;
  if (options.maxSessionFiles !== undefined) out.maxSessionFiles = options.maxSessionFiles;
  return out;
}
