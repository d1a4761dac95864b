/**
 * Whether a process id names a running process on this host, for the files
 * whose owner may have died (lock files, temp files of atomic writes, spill
 * files being written). A process of another user counts as running (EPERM).
 */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
