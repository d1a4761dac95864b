/**
 * Starting and ending the daemon process: a private umask, the checked
 * directory, one daemon per directory (a live socket means another one runs:
 * this one says ready and leaves), a fresh token, the socket (0600), the
 * watchdog, "ready" to the starting session, and on the way out the servers
 * stopped and the socket removed.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, unlinkSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { writeFileAtomic } from "@pi-mcp-adapter/core";
import { connectSocket, isNoDaemon } from "../client/daemon-connection.js";
import { daemonPathsIn, ensureDaemonDir } from "../daemon-paths.js";
import { Daemon } from "./daemon.js";
import { fileLog } from "./daemon-log.js";
import { daemonSettings } from "./daemon-settings.js";
import { shareKeyFunction } from "./share-key.js";
import { startWatchdog } from "./watchdog.js";

export async function runDaemon(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const settings = daemonSettings(argv, env);
  process.umask(0o077);
  const paths = daemonPathsIn(settings.dir);
  await ensureDaemonDir(paths);
  const log = fileLog(paths.log);
  const sayReady = () => {
    if (settings.readyFd === undefined) return;
    try {
      writeSync(settings.readyFd, "ready\n");
      closeSync(settings.readyFd);
    } catch {
      // started by hand, or the starter gave up waiting
    }
  };

  try {
    (await connectSocket(paths.socket)).destroy();
    log("another daemon already listens on this socket; leaving it be");
    sayReady();
    return;
  } catch (error) {
    if (!isNoDaemon(error)) throw error;
    if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") unlinkSync(paths.socket);
  }

  const token = randomBytes(32).toString("hex");
  await writeFileAtomic(paths.token, token, { mode: 0o600 });
  const watchdog = startWatchdog(log);
  let quitting = false;
  const listener = createServer();
  const daemon = new Daemon({
    settings,
    paths,
    token,
    shareKey: shareKeyFunction(),
    watchdog,
    log,
    onQuit: () => void quit(0),
  });

  const quit = async (code: number) => {
    if (quitting) return;
    quitting = true;
    // The socket goes first, so a session arriving now starts a new daemon instead of reaching this one.
    try {
      unlinkSync(paths.socket);
    } catch {
      // already gone
    }
    listener.close();
    await daemon.stopAll();
    log(`exiting (code ${code})`);
    process.exit(code);
  };

  process.on("exit", () => daemon.killAll());
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => {
      log(`got ${signal}`);
      void quit(0);
    });
  }
  process.on("uncaughtException", (error) => {
    log(`crashed: ${error.stack ?? error.message}`);
    daemon.killAll();
    process.exit(1);
  });

  listener.on("connection", (socket) => daemon.accept(socket));
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(paths.socket, () => {
      listener.off("error", reject);
      resolve();
    });
  });
  chmodSync(paths.socket, 0o600);
  log(`listening on ${paths.socket}, watchdog pid ${watchdog.pid ?? "none"}`);
  sayReady();
}
