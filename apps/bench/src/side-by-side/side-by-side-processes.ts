/**
 * What a running Pi holds in processes, read from /proc (Linux only): the
 * Pi process of a bench project (a child of this process whose working
 * directory is the project's; Pi 1.6 renames its process title, so its
 * command line does not say what it is), the processes below it (the MCP servers an
 * adapter or the built-in started), and their proportional set size (PSS,
 * shared pages split among the processes sharing them) from
 * `/proc/<pid>/smaps_rollup`; processes found by command line and
 * environment, and their summed RSS.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

function pids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Reads a /proc file, or undefined when the process is gone or not ours to read. */
function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

/** The parent pid from `/proc/<pid>/stat` (the field after the parenthesised command name). */
function parentOf(pid: number): number | undefined {
  const stat = readProc(pid, "stat");
  if (!stat) return undefined;
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** The Pi process this process started in `projectDir`, if one runs. */
export function findPi(projectDir: string): number | undefined {
  for (const pid of pids()) {
    if (parentOf(pid) !== process.pid) continue;
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === projectDir) return pid;
    } catch {}
  }
  return undefined;
}

/** Every process below `root` (children, their children, …). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of pids()) {
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Fields of `/proc/<pid>/smaps_rollup` summed over the processes, in MiB (a process gone meanwhile counts 0). */
function rollupMiB(processes: number[], fields: readonly string[]): number {
  const patterns = fields.map((field) => new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  let kib = 0;
  for (const pid of processes) {
    const rollup = readProc(pid, "smaps_rollup") ?? "";
    for (const pattern of patterns) kib += Number(pattern.exec(rollup)?.[1] ?? 0);
  }
  return kib / 1024;
}

/** PSS of the processes in MiB, summed (a process gone meanwhile counts 0). */
export function pssMiB(processes: number[]): number {
  return rollupMiB(processes, ["Pss"]);
}

/**
 * USS of the processes in MiB, summed: the pages each holds alone (private
 * clean and dirty), what the machine gets back when it exits. Pages shared
 * with any other process (Node's own code, shared with Pi) are not in it.
 */
export function ussMiB(processes: number[]): number {
  return rollupMiB(processes, ["Private_Clean", "Private_Dirty"]);
}

/** VmRSS of the processes in MiB, summed: pages shared between them count once per process. */
export function rssMiB(processes: number[]): number {
  let kib = 0;
  for (const pid of processes)
    kib += Number(/VmRSS:\s+(\d+) kB/.exec(readProc(pid, "status") ?? "")?.[1] ?? 0);
  return kib / 1024;
}

/** A process's command line, its arguments joined by spaces, or undefined when it is gone. */
export function commandLineOf(pid: number): string | undefined {
  return readProc(pid, "cmdline")?.replaceAll("\0", " ");
}

/** Live (not zombie) processes whose command line (arguments joined by NUL) and environment match. */
export function processesWhere(match: (cmdline: string, environ: string) => boolean): number[] {
  return pids().filter((pid) => {
    const stat = readProc(pid, "stat");
    if (!stat || stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") return false;
    const cmdline = readProc(pid, "cmdline");
    const environ = readProc(pid, "environ");
    return cmdline !== undefined && environ !== undefined && match(cmdline, environ);
  });
}

/** The processes below the Pi of `projectDir` right now, and their PSS. */
export function piServers(projectDir: string): { processes: number; pssMiB: number } {
  const pi = findPi(projectDir);
  if (pi === undefined) throw new Error(`no Pi process started by the bench runs in ${projectDir}`);
  const below = descendants(pi);
  return { processes: below.length, pssMiB: pssMiB(below) };
}
