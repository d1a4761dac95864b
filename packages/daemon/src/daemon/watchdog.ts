/**
 * No orphans when the daemon dies hard. Node cannot ask the kernel to kill
 * children with their parent (no PR_SET_PDEATHSIG), so a tiny `sh` process
 * (about 1 MB, not another Node) holds a pipe from the daemon: the daemon
 * writes `add <pgid>` / `del <pgid>` as server process groups come and go,
 * and when the pipe ends — the daemon exited, however — the watchdog sends
 * SIGTERM, then SIGKILL a second later, to every group still listed.
 */
import { type ChildProcess, spawn } from "node:child_process";

const SCRIPT = `list=" "
while read -r op pg; do
  case "$op" in
    add) list="$list$pg " ;;
    del) list=$(printf '%s' "$list" | sed "s/ $pg / /") ;;
  esac
done
[ "$list" = " " ] && exit 0
for pg in $list; do kill -TERM -$pg 2>/dev/null; done
sleep 1
for pg in $list; do kill -KILL -$pg 2>/dev/null; done`;

export interface Watchdog {
  add(pgid: number): void;
  remove(pgid: number): void;
  /** The watchdog's pid (for status and tests); undefined when it could not start. */
  readonly pid: number | undefined;
}

/** Starts the watchdog in its own process group, so a signal to the daemon's group does not take it along. */
export function startWatchdog(log: (line: string) => void): Watchdog {
  let child: ChildProcess | undefined;
  try {
    child = spawn("/bin/sh", ["-c", SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", (error) => {
      log(`watchdog: cannot run /bin/sh (${error.message}); servers may outlive a daemon that is killed`);
      child = undefined;
    });
    child.stdin?.on("error", () => {});
    child.unref();
  } catch (error) {
    log(`watchdog: ${(error as Error).message}`);
  }
  const write = (line: string) => {
    if (child?.stdin?.writable) child.stdin.write(`${line}\n`);
  };
  return {
    add: (pgid) => write(`add ${pgid}`),
    remove: (pgid) => write(`del ${pgid}`),
    get pid() {
      return child?.pid;
    },
  };
}
