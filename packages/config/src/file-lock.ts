/**
 * A small cross-process lock: `<file>.lock` created exclusively, holding the
 * owner's pid. Waiters retry; a lock older than `staleMs` (a crashed writer)
 * is taken over. Used so concurrent read-modify-write cycles do not lose
 * each other's changes.
 */
import { mkdir, open, rm, stat } from "node:fs/promises";
import path from "node:path";

export interface FileLockOptions {
  /** Give up after this long. Default 5 s. */
  timeoutMs?: number;
  /** Treat a lock file older than this as abandoned. Default 10 s. */
  staleMs?: number;
}

export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 5000;
  const staleMs = options.staleMs ?? 10_000;
  await mkdir(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  for (;;) {
    try {
      const handle = await open(lock, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleMs) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 25);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}
