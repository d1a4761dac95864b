/**
 * The sweep of old files the guard wrote, run when a guard is created.
 * Spill files outlive their session on purpose (a resumed session and the
 * user still open them); they go once they are older than the spill age
 * (`spillMaxAgeDays`, 7 days by default). Binary files belong to one
 * session and are removed at its end; what a crashed session left goes after
 * a day. Only files the guard wrote are touched: entries named as
 * `guard-file-names.ts` makes them, directly inside this user's
 * `pi-mcp-adapter-spill-*` / `-blobs-*` directories; never another user's
 * directory, a link, a subdirectory or a file of another name. A partial
 * file goes only when the process that was writing it is gone (or it is as
 * old as a complete one would have to be), so a concurrent session's write
 * in progress is never cut. Errors are swallowed: this is housekeeping,
 * started off the critical path, and must never fail a session.
 */
import { lstat, readdir, rmdir, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { processAlive } from "@pi-mcp-adapter/core";
import { BLOB_DIR_PREFIX } from "./blob-store.js";
import { type GuardFile, recogniseGuardFile } from "./guard-file-names.js";
import { SPILL_DIR_PREFIX } from "./spill-writer.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spill files are kept this many days unless `spillMaxAgeDays` says otherwise. */
export const DEFAULT_SPILL_MAX_AGE_DAYS = 7;

/** Binary files a crashed session left (it never removed its own) go after this long. */
export const STALE_BLOB_AGE_MS = DAY_MS;

/**
 * A partial file whose writer is gone is left this long after its last
 * write: `/tmp` may be shared with processes whose pids this one cannot see
 * (another container), and a live writer touches its file at every batch.
 */
export const PARTIAL_FILE_GRACE_MS = 60_000;

export interface StaleFileOptions {
  /** Where the guard's directories are; default: the system temp dir. */
  root?: string;
  /** Spill files not modified for this long are removed; default `DEFAULT_SPILL_MAX_AGE_DAYS`. */
  spillMaxAgeMs?: number;
  /** Binary files not modified for this long are removed; default `STALE_BLOB_AGE_MS`. */
  blobMaxAgeMs?: number;
  now?: () => number;
  /** Whether process `pid` is running; default: a signal-0 probe of this machine. */
  isRunning?: (pid: number) => boolean;
}

/** Removes old spill and binary files under `root`; returns the paths removed (files, then emptied dirs). */
export async function removeStaleGuardFiles(options: StaleFileOptions = {}): Promise<string[]> {
  const root = options.root ?? tmpdir();
  const now = (options.now ?? Date.now)();
  const isRunning = options.isRunning ?? processAlive;
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const spill = name.startsWith(SPILL_DIR_PREFIX);
    if (!spill && !name.startsWith(BLOB_DIR_PREFIX)) continue;
    const cutoff =
      now -
      (spill
        ? (options.spillMaxAgeMs ?? DEFAULT_SPILL_MAX_AGE_DAYS * DAY_MS)
        : (options.blobMaxAgeMs ?? STALE_BLOB_AGE_MS));
    const dir = path.join(root, name);
    const info = await lstat(dir).catch(() => undefined);
    if (!info?.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
    let left = 0;
    for (const entry of await readdir(dir).catch(() => [] as string[])) {
      const at = path.join(dir, entry);
      const file = recogniseGuardFile(entry);
      const stat = file ? await lstat(at).catch(() => undefined) : undefined;
      const stale =
        file !== undefined &&
        stat?.isFile() === true &&
        isStale(file, stat.mtimeMs, { cutoff, now, isRunning });
      if (stale && (await succeeds(unlink(at)))) removed.push(at);
      else left += 1;
    }
    // rmdir (not rm): a file a concurrent writer just added keeps the directory.
    if (left === 0 && info.mtimeMs < cutoff && (await succeeds(rmdir(dir)))) removed.push(dir);
  }
  return removed;
}

const succeeds = (operation: Promise<unknown>): Promise<boolean> =>
  operation.then(
    () => true,
    () => false,
  );

function isStale(
  file: GuardFile,
  mtimeMs: number,
  { cutoff, now, isRunning }: { cutoff: number; now: number; isRunning: (pid: number) => boolean },
): boolean {
  if (mtimeMs < cutoff) return true;
  if (file.kind === "complete" || file.writer === undefined) return false;
  return mtimeMs < now - PARTIAL_FILE_GRACE_MS && !isRunning(file.writer);
}
