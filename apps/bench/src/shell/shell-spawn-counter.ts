/**
 * Counts child processes this process starts: wraps every `node:child_process`
 * starter (ESM importers see the wrappers through `syncBuiltinESMExports`) and
 * lists live children from `/proc` (Linux). Install it before loading the
 * code under test.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";

const STARTERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

let started = 0;
let installed = false;

export function installSpawnCounter(): void {
  if (installed) return;
  installed = true;
  const childProcess = createRequire(import.meta.url)("node:child_process") as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  for (const name of STARTERS) {
    const original = childProcess[name]!;
    childProcess[name] = function counted(this: unknown, ...args: unknown[]) {
      started++;
      return original.apply(this, args);
    };
  }
  syncBuiltinESMExports();
}

/** Child processes started through `node:child_process` since the counter was installed. */
export function spawnCount(): number {
  return started;
}

/** Pids of this process's live children. */
export function liveChildren(): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid) children.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return children;
}
