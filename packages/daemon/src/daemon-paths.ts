/**
 * Where the daemon lives: `<agentDir>/mcp-daemon/`, a directory only its
 * owner may enter (0700), holding the socket (0600), the token file (0600)
 * that clients present in their hello, the log, and the start lock.
 */
import { chmod, lstat, mkdir } from "node:fs/promises";
import path from "node:path";
import { DaemonError } from "./errors.js";
import type { SharingSupport } from "./types.js";

export interface DaemonPaths {
  dir: string;
  socket: string;
  token: string;
  log: string;
  /** `withFileLock` target: sessions racing to start a daemon take turns on `<startLock>.lock`. */
  startLock: string;
}

/** The longest Unix socket path the platforms take (108 bytes on Linux, 104 on macOS, with the NUL). */
const MAX_SOCKET_PATH_BYTES = 103;

export function daemonPaths(agentDir: string): DaemonPaths {
  return daemonPathsIn(path.join(path.resolve(agentDir), "mcp-daemon"));
}

/** The files of a daemon directory (the daemon itself is started with `--dir`). */
export function daemonPathsIn(dir: string): DaemonPaths {
  return {
    dir,
    socket: path.join(dir, "daemon.sock"),
    token: path.join(dir, "token"),
    log: path.join(dir, "daemon.log"),
    startLock: path.join(dir, "start"),
  };
}

/** Whether this platform can share servers. Windows cannot (no Unix socket permissions to rely on). */
export function sharingSupport(platform: NodeJS.Platform = process.platform): SharingSupport {
  if (platform === "win32") {
    return {
      supported: false,
      reason: "shared servers need Unix sockets; on Windows every session starts its own",
    };
  }
  return { supported: true };
}

/**
 * Creates the daemon directory if needed and checks it is safe: a real
 * directory (not a link), owned by this user, closed to everyone else. A
 * directory of ours with looser modes is tightened; one owned by another user
 * is refused.
 */
export async function ensureDaemonDir(paths: DaemonPaths): Promise<void> {
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH_BYTES) {
    throw new DaemonError(
      "daemon_unsafe",
      `The daemon socket path ${paths.socket} is ${Buffer.byteLength(paths.socket)} bytes, longer than ` +
        `Unix sockets allow (${MAX_SOCKET_PATH_BYTES}); use a shorter agent directory`,
    );
  }
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  const info = await lstat(paths.dir);
  if (!info.isDirectory()) {
    throw new DaemonError("daemon_unsafe", `${paths.dir} should be a directory but is a link or a file`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new DaemonError(
      "daemon_unsafe",
      `${paths.dir} belongs to user ${info.uid}, not to this user (${uid}); refusing to share servers through it`,
    );
  }
  if ((info.mode & 0o077) !== 0) await chmod(paths.dir, 0o700);
}
