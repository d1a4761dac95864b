/**
 * Ends a stdio server and everything it spawned. Servers start as leaders of
 * their own process group, so wrappers such as `npx` or `sh -c` cannot leave
 * grandchildren behind: the whole group gets SIGTERM, then SIGKILL after a
 * grace period if any member is still alive.
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const DEFAULT_KILL_GRACE_MS = 2000;

/** Whether any process of the group led by `pgid` is still alive (zombies do not count). */
export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // Orphaned members that already died linger as zombies until the init process
  // reaps them, which in containers can take seconds; on Linux look closer.
  return process.platform === "linux" ? hasLivingMember(pgid) : true;
}

function hasLivingMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the parenthesised command: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
    } catch {
      // exited while we looked
    }
  }
  return false;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === "win32") child.kill(signal);
    else process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function groupGone(child: ChildProcess): boolean {
  const pid = child.pid;
  if (pid === undefined) return true;
  if (process.platform === "win32") return child.exitCode !== null || child.signalCode !== null;
  return !isGroupAlive(pid);
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs` if anything survives. */
export async function terminateProcessTree(
  child: ChildProcess,
  graceMs = DEFAULT_KILL_GRACE_MS,
): Promise<void> {
  if (child.pid === undefined) return;
  signalGroup(child, "SIGTERM");
  if (await waitUntil(() => groupGone(child), graceMs)) return;
  signalGroup(child, "SIGKILL");
  await waitUntil(() => groupGone(child), 1000);
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Remembers a child so that it is killed (with its group) if this process
 * exits without closing it — a host crash must not leave servers behind.
 */
export function trackChild(child: ChildProcess): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const tracked of live) signalGroup(tracked, "SIGKILL");
    });
  }
  live.add(child);
  return () => live.delete(child);
}
