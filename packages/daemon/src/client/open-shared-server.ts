/**
 * The client side of shared servers: attach to (or start) the daemon's copy
 * of a stdio server, and ask the daemon for its status or to stop.
 */
import type { Socket } from "node:net";
import { describeError } from "@pi-mcp-adapter/core";
import { daemonPaths, ensureDaemonDir, sharingSupport } from "../daemon-paths.js";
import { DaemonError } from "../errors.js";
import type { DaemonStatus, OpenSharedOptions, SharedServerChannel } from "../types.js";
import { connectSocket, type HandshakeResult, handshake, isNoDaemon } from "./daemon-connection.js";
import { SharedChannel } from "./shared-channel.js";
import { connectOrStartDaemon } from "./start-daemon.js";

/** A server stays this long after its last session leaves, unless the caller says otherwise. */
export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;

/**
 * Attaches to the daemon's process for `opts.spec` (started on first use,
 * with the daemon itself if none runs). Rejects with a `DaemonError` naming
 * what failed: an unsupported platform, an unsafe directory, a daemon that
 * would not start, or a server the daemon could not spawn.
 */
export async function openSharedServer(opts: OpenSharedOptions): Promise<SharedServerChannel> {
  const support = sharingSupport();
  if (!support.supported)
    throw new DaemonError("daemon_unsupported", `Cannot share servers: ${support.reason}`);
  const paths = daemonPaths(opts.agentDir);
  await ensureDaemonDir(paths);
  const hello = {
    op: "attach",
    name: opts.serverName,
    spec: opts.spec,
    clientKey: opts.clientKey ?? "",
    idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    sessionUpdates: true,
  } as const;
  let attached: HandshakeResult;
  try {
    attached = await handshake(await connectOrStartDaemon(paths, opts), paths, hello);
  } catch (error) {
    // A daemon that was just quitting (idle, or stopped) closes without answering: the next one will.
    if (!(error instanceof DaemonError && error.code === "daemon_closed")) throw error;
    attached = await handshake(await connectOrStartDaemon(paths, opts), paths, hello);
  }
  const { socket, reply, rest } = attached;
  if (!reply.ok || !("attach" in reply)) {
    socket.destroy();
    const why = reply.ok ? "an answer that is not an attachment" : reply.error;
    throw new DaemonError("daemon_refused", `The daemon could not share server "${opts.serverName}": ${why}`);
  }
  const { sessions, ...attachment } = reply.attach;
  return new SharedChannel(socket, attachment, sessions, opts.serverName, rest);
}

/** The running daemon's status, or `undefined` when none runs (or sharing is not supported here). */
export async function daemonStatus(agentDir: string): Promise<DaemonStatus | undefined> {
  const socket = await connectExisting(agentDir);
  if (!socket) return undefined;
  const { reply } = await handshake(socket, daemonPaths(agentDir), { op: "status" });
  socket.destroy();
  if (reply.ok && "status" in reply) return reply.status;
  throw new DaemonError(
    "daemon_refused",
    `The daemon refused the status request: ${reply.ok ? "?" : reply.error}`,
  );
}

/**
 * Stops the running daemon and every server it runs; resolves once it has
 * closed the connection (its servers are stopped by then). `false` when no
 * daemon was running.
 */
export async function stopDaemon(agentDir: string): Promise<boolean> {
  const socket = await connectExisting(agentDir);
  if (!socket) return false;
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const { reply } = await handshake(socket, daemonPaths(agentDir), { op: "stop" });
  if (!reply.ok) {
    socket.destroy();
    throw new DaemonError("daemon_refused", `The daemon refused to stop: ${reply.error}`);
  }
  await closed;
  return true;
}

async function connectExisting(agentDir: string): Promise<Socket | undefined> {
  if (!sharingSupport().supported) return undefined;
  const paths = daemonPaths(agentDir);
  try {
    return await connectSocket(paths.socket);
  } catch (error) {
    if (isNoDaemon(error)) return undefined;
    throw new DaemonError(
      "daemon_closed",
      `Cannot reach the daemon at ${paths.socket}: ${describeError(error)}`,
      {
        cause: error,
      },
    );
  }
}
