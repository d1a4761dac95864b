/**
 * The daemon's log file (0600, appended): one line per event, with server
 * names, share keys and pids — never a spec, an environment value or a
 * message's content, since those may carry secrets. A log past 1 MiB when a
 * daemon starts is moved to `daemon.log.old` (replacing the one before).
 */
import { appendFileSync, renameSync, statSync } from "node:fs";

export type DaemonLog = (line: string) => void;

const ROTATE_BYTES = 1024 * 1024;

export function fileLog(file: string): DaemonLog {
  try {
    if (statSync(file).size > ROTATE_BYTES) renameSync(file, `${file}.old`);
  } catch {
    // no log yet
  }
  return (line) => {
    try {
      appendFileSync(file, `${new Date().toISOString()} [${process.pid}] ${line}\n`, { mode: 0o600 });
    } catch {
      // a log that cannot be written must not stop the daemon
    }
  };
}
