/**
 * Files earlier sessions left in the temp dir (a session that crashed never
 * ran `dispose()`): in this user's spill and binary-file directories, files
 * not touched for a day are removed, and directories left empty and as old.
 * Anything fresher — a concurrent session's files — stays. Directories of
 * other users, and links, are never followed. Errors are swallowed: this is
 * housekeeping, started off the critical path, and must never fail a session.
 */
import { lstat, readdir, rm, rmdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { BLOB_DIR_PREFIX } from "./blob-store.js";
import { SPILL_DIR_PREFIX } from "./spill-writer.js";

/** Files not modified for this long are taken as left behind. */
export const STALE_FILE_AGE_MS = 24 * 60 * 60 * 1000;

export interface StaleFileOptions {
  /** Where the guard's directories are; default: the system temp dir. */
  root?: string;
  /** Default `STALE_FILE_AGE_MS`. */
  maxAgeMs?: number;
  now?: () => number;
}

/** Removes stale spill and binary files under `root`; returns the paths removed (files, then emptied dirs). */
export async function removeStaleGuardFiles(options: StaleFileOptions = {}): Promise<string[]> {
  const root = options.root ?? tmpdir();
  const cutoff = (options.now ?? Date.now)() - (options.maxAgeMs ?? STALE_FILE_AGE_MS);
  const uid = process.getuid?.();
  const removed: string[] = [];
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(SPILL_DIR_PREFIX) && !name.startsWith(BLOB_DIR_PREFIX)) continue;
    const dir = path.join(root, name);
    const info = await lstat(dir).catch(() => undefined);
    if (!info?.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
    let left = 0;
    for (const file of await readdir(dir).catch(() => [] as string[])) {
      const at = path.join(dir, file);
      const stat = await lstat(at).catch(() => undefined);
      if (
        stat &&
        stat.mtimeMs < cutoff &&
        (await rm(at, { recursive: true, force: true }).then(
          () => true,
          () => false,
        ))
      )
        removed.push(at);
      else left += 1;
    }
    // rmdir (not rm): a file a concurrent writer just added keeps the directory.
    if (
      left === 0 &&
      info.mtimeMs < cutoff &&
      (await rmdir(dir).then(
        () => true,
        () => false,
      ))
    )
      removed.push(dir);
  }
  return removed;
}
