/**
 * The daemon's log file (0600, appended): one line per event, with server
 * names, share keys and pids — never a spec, an environment value or a
 * message's content, since those may carry secrets.
 */
import { appendFileSync } from "node:fs";

export type DaemonLog = (line: string) => void;

export function fileLog(file: string): DaemonLog {
  return (line) => {
    try {
      appendFileSync(file, `${new Date().toISOString()} [${process.pid}] ${line}\n`, { mode: 0o600 });
    } catch {
      // a log that cannot be written must not stop the daemon
    }
  };
}
