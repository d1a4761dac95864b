/**
 * Sweeps the temp files `writeFileAtomic` leaves behind when its process is
 * killed mid-write (`<file>.<pid>.<12 hex>.tmp`, up to the size of the file
 * being written, e.g. a 1.5 MB metadata cache). A temp file is stale when
 * its writer's process is gone (and it is older than a few seconds: the
 * pid is this host's view, and a home dir may be shared with another host
 * whose writer is still busy), or when it is older than an hour whoever
 * its pid names (pids are reused). A live writer's fresh temp file is never
 * touched. Sweeping is best effort: it never fails the write that runs it.
 */
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { processAlive } from "./process-alive.js";

/** `<name>.<pid>.<random>.tmp`, as `writeFileAtomic` names its temp files. */
const TEMP_FILE_PATTERN = /^.+\.(\d+)\.[0-9a-f]{12}\.tmp$/;
/** A dead writer's temp file younger than this may belong to a writer on another host. */
const DEAD_WRITER_GRACE_MS = 5_000;
/** Older than this, a temp file is stale even if its pid names a live process (a reused pid). */
const ABANDONED_AFTER_MS = 60 * 60_000;
/** A directory is swept at most this often per process: writes of the same file come in bursts. */
const SWEEP_INTERVAL_MS = 60_000;

const lastSweep = new Map<string, number>();

/** The temp file name `writeFileAtomic` uses for `file` in this process. */
export function tempFileName(file: string, random: string): string {
  return `${file}.${process.pid}.${random}.tmp`;
}

/** Removes stale temp files of `writeFileAtomic` in `dir` (see the header); returns the names removed. */
export async function sweepStaleTempFiles(dir: string, now: number = Date.now()): Promise<string[]> {
  const last = lastSweep.get(dir);
  if (last !== undefined && now - last < SWEEP_INTERVAL_MS) return [];
  lastSweep.set(dir, now);
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(TEMP_FILE_PATTERN.exec(name)?.[1]);
    if (!pid) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const age = now - info.mtimeMs;
    const stale = age > ABANDONED_AFTER_MS || (age > DEAD_WRITER_GRACE_MS && !processAlive(pid));
    if (
      stale &&
      (await rm(file).then(
        () => true,
        () => false,
      ))
    )
      removed.push(name);
  }
  return removed;
}
