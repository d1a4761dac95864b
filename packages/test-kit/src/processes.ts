import { readdir } from "node:fs/promises";

/** Whether a process with this pid is still alive (zombies aside). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Pids recorded by fixture servers started with `FIXTURE_PID_DIR=dir`. */
export async function recordedPids(dir: string): Promise<number[]> {
  return (await readdir(dir)).map(Number).filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** Waits until none of the pids is alive, or the deadline passes; returns the survivors. */
export async function waitForExit(pids: number[], timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isProcessAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = alive.filter(isProcessAlive);
  }
  return alive;
}
