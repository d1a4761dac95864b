/**
 * One cross-process lock for read-modify-write cycles on a shared file:
 * `<file>.lock` created exclusively, holding a token of its owner. Waiters
 * retry with a short, jittered back-off; a lock file older than `staleMs`
 * (left by a crashed writer) is taken over. Release removes the lock only
 * while it still holds this owner's token.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { McpAdapterError } from "./errors.js";

export interface FileLockOptions {
  /** How long to wait for the lock. Default 5 s. */
  timeoutMs?: number;
  /** A lock file older than this counts as abandoned. Default 10 s; keep it well above any `fn`'s run time. */
  staleMs?: number;
  /**
   * What to do when the wait times out: `"throw"` (default) rejects with an
   * `McpAdapterError` coded `lock_timeout`; `"run"` runs `fn` without the lock,
   * for data where a rare lost update is cheaper than a failed write (caches).
   */
  onTimeout?: "throw" | "run";
}

/** Runs `fn` while holding `<file>.lock`; the lock is released however `fn` ends. */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 5000;
  const staleMs = options.staleMs ?? 10_000;
  const token = `${process.pid}.${randomBytes(6).toString("hex")}`;
  await mkdir(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  for (;;) {
    if (await tryCreate(lock, token)) break;
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > staleMs) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      if (options.onTimeout === "run") return fn();
      throw new McpAdapterError(
        "lock_timeout",
        `Timed out after ${timeoutMs} ms waiting for the lock file ${lock}; if no other process is ` +
          "writing that file, delete the lock file",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random())));
    delay = Math.min(delay * 2, 40);
  }
  try {
    return await fn();
  } finally {
    const holder = await readFile(lock, "utf8").catch(() => undefined);
    if (holder === token) await rm(lock, { force: true });
  }
}

async function tryCreate(lock: string, token: string): Promise<boolean> {
  try {
    const handle = await open(lock, "wx");
    try {
      await handle.writeFile(token);
    } catch (error) {
      await handle.close();
      await rm(lock, { force: true });
      throw error;
    }
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
