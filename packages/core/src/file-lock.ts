/**
 * One cross-process lock for read-modify-write cycles on a shared file:
 * `<file>.lock`, created exclusively, naming its owner (pid, host, a random
 * token). While `fn` runs the owner touches the lock every `staleMs / 3`, so
 * a live owner's lock never looks abandoned. A lock counts as abandoned when
 * its owner's process is gone (same host) or it was not touched for
 * `staleMs`.
 *
 * Taking over an abandoned lock is itself exclusive: a waiter first creates
 * `<file>.lock.<hash of the old owner's token>.break` (only one process can),
 * then removes the lock only if it still names that old owner. So when many
 * processes find the same abandoned lock at once, exactly one removes it and
 * they then compete for a fresh lock in the ordinary way: nobody ever removes
 * a lock another waiter has just taken.
 *
 * A waiter never runs `fn` without the lock: past `timeoutMs` it fails with
 * `lock_timeout`, naming the lock file and its owner.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, rm, stat, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { McpAdapterError } from "./errors.js";
import { processAlive } from "./process-alive.js";

export interface FileLockOptions {
  /** How long to wait for the lock before failing with `lock_timeout`. Default 10 s. */
  timeoutMs?: number;
  /** A lock its owner has not touched for this long counts as abandoned. Default 10 s. */
  staleMs?: number;
}

interface LockOwner {
  pid?: number;
  host?: string;
  token: string;
}

/**
 * Writers of one file in this process, in arrival order: they take turns here
 * and only the head of the line competes for the lock file, so forty writers
 * in one session do not poll the disk against each other (and none starves).
 */
const inProcess = new Map<string, Promise<void>>();

/** Runs `fn` while holding `<file>.lock`; the lock is released however `fn` ends. */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  const previous = inProcess.get(lock) ?? Promise.resolve();
  let done!: () => void;
  const mine = previous.then(() => new Promise<void>((resolve) => (done = resolve)));
  inProcess.set(lock, mine);
  try {
    await waitTurn(previous, lock, timeoutMs);
    return await holding(lock, fn, deadline, timeoutMs, options.staleMs ?? 10_000);
  } finally {
    // Our turn ends once the one before us ended (at once, unless we gave up waiting for it).
    void previous.then(() => done());
    if (inProcess.get(lock) === mine)
      void mine.then(() => inProcess.get(lock) === mine && inProcess.delete(lock));
  }
}

async function waitTurn(previous: Promise<void>, lock: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(lockTimeout(lock, timeoutMs, ` (held by process ${process.pid} on ${hostname()}, this one)`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([previous, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function lockTimeout(lock: string, timeoutMs: number, by: string): McpAdapterError {
  return new McpAdapterError(
    "lock_timeout",
    `Timed out after ${timeoutMs} ms waiting for the lock file ${lock}${by}; if no other process is ` +
      "writing that file, delete the lock file",
  );
}

async function holding<T>(
  lock: string,
  fn: () => Promise<T>,
  deadline: number,
  timeoutMs: number,
  staleMs: number,
): Promise<T> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(12).toString("hex") };
  await acquire(lock, owner, deadline, timeoutMs, staleMs);
  const heartbeat = setInterval(
    () => {
      const now = new Date();
      utimes(lock, now, now).catch(() => {});
    },
    Math.max(10, Math.floor(staleMs / 3)),
  );
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    const holder = await readOwner(lock);
    if (holder?.token === owner.token) await rm(lock, { force: true });
  }
}

async function acquire(
  lock: string,
  owner: LockOwner,
  deadline: number,
  timeoutMs: number,
  staleMs: number,
): Promise<void> {
  await mkdir(path.dirname(lock), { recursive: true });
  let delay = 5;
  for (;;) {
    if (await tryCreate(lock, JSON.stringify(owner))) return;
    const seen = await inspect(lock);
    if (!seen) continue; // released between our attempt and the look: try again at once
    if (isAbandoned(seen, staleMs)) {
      await breakAbandoned(lock, seen.owner.token, staleMs);
      continue;
    }
    if (Date.now() > deadline) {
      const by = seen.owner.pid ? ` (held by process ${seen.owner.pid} on ${seen.owner.host ?? "?"})` : "";
      throw lockTimeout(lock, timeoutMs, by);
    }
    await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random())));
    delay = Math.min(delay * 2, 50);
  }
}

async function tryCreate(file: string, content: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } catch (error) {
    await handle.close();
    await rm(file, { force: true });
    throw error;
  }
  await handle.close();
  return true;
}

/** The owner named in a lock file (an older plain-token format reads as a token only). */
async function readOwner(lock: string): Promise<LockOwner | undefined> {
  const text = await readFile(lock, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.token === "string") return parsed as LockOwner;
  } catch {
    // not JSON: an older lock format, or a lock whose owner is still writing it
  }
  return { token: `raw:${text}` };
}

async function inspect(lock: string): Promise<{ owner: LockOwner; ageMs: number } | undefined> {
  const [owner, info] = await Promise.all([readOwner(lock), stat(lock).catch(() => undefined)]);
  if (!owner || !info) return undefined;
  return { owner, ageMs: Date.now() - info.mtimeMs };
}

function isAbandoned(seen: { owner: LockOwner; ageMs: number }, staleMs: number): boolean {
  if (seen.ageMs > staleMs) return true;
  const { pid, host } = seen.owner;
  // A lock only just created may not hold its owner yet (`raw:`): only its age can tell.
  if (pid === undefined || host !== hostname() || pid === process.pid) return false;
  return !processAlive(pid);
}

/** Removes the abandoned lock naming `token`, unless another waiter is already doing so. */
async function breakAbandoned(lock: string, token: string, staleMs: number): Promise<void> {
  const marker = `${lock}.${createHash("sha256").update(token).digest("hex").slice(0, 16)}.break`;
  if (!(await tryCreate(marker, String(process.pid)))) {
    // Another waiter is taking it over. A marker left by one that died mid-takeover is cleared by age.
    const info = await stat(marker).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > staleMs) await rm(marker, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, 5));
    return;
  }
  try {
    if ((await readOwner(lock))?.token === token) await rm(lock, { force: true });
  } finally {
    await rm(marker, { force: true });
  }
}
