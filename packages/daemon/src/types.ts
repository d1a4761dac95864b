/**
 * The contracts between a session and the shared-server daemon: what a
 * session presents to share a server, the channel it gets back, and what the
 * daemon reports about itself.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * The effective process definition of a stdio server, exactly as it would be
 * spawned: secrets already resolved, sandbox wrapping already applied. Two
 * sessions share one server process only when their specs (and client keys)
 * are equal.
 */
export interface SharedSpawnSpec {
  command: string;
  args: string[];
  cwd?: string;
  /**
   * The whole environment of the server process (nothing is inherited from
   * the daemon). Build it with `sharedServerEnv`, so that sessions whose
   * terminals differ still share: every variable here is part of the share key.
   */
  env: Record<string, string>;
}

export interface OpenSharedOptions {
  /** The agent directory; the daemon's directory is `<agentDir>/mcp-daemon/`. */
  agentDir: string;
  spec: SharedSpawnSpec;
  /** The server's name in the caller's config: for status and logs only, never part of the share key. */
  serverName: string;
  /**
   * The caller's summary of what the server may see of its client: declared
   * client capabilities and roots. Sessions with different keys never share a
   * server process. Must hold no secret (the daemon logs a hash of it only,
   * but keep it plain data).
   */
  clientKey?: string;
  /** How long the server lives after its last session leaves. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** How to start the daemon when none runs. Default: this Node binary running the package's daemon entry. */
  daemonCommand?: { command: string; args: string[] };
  /** How long to wait for a daemon to start accepting connections. Default 10 s. */
  startTimeoutMs?: number;
}

/** What the daemon answered when the channel attached. */
export interface SharedAttachment {
  /** The share key: a keyed hash (the key lives only in the daemon's memory), so it reveals no secret. */
  key: string;
  /** The server process id. */
  pid: number;
  /** Whether an already running server process was reused. */
  reused: boolean;
  /** The daemon's process id. */
  daemonPid: number;
}

/**
 * An MCP SDK `Transport` to a shared server. Put an SDK `Client` on it as on
 * a `StdioClientTransport`; the session does its own `initialize` (the daemon
 * answers later sessions from the first one's result).
 *
 * `onclose` fires when the server process exits, the daemon goes away, or
 * `close()` is called; a closed channel is not reopened — call
 * `openSharedServer` again (it starts a new daemon if needed).
 */
export interface SharedServerChannel extends Transport {
  /** Set once `start()` resolved. */
  readonly attachment: SharedAttachment | undefined;
  /** Sessions attached to this server process right now (this one included), as last reported by the daemon. */
  sessions(): number;
  /** Called whenever the daemon reports a new session count. */
  onsessions?: (count: number) => void;
  /** Why the channel closed; set before `onclose` runs. */
  readonly ended: SharedChannelEnd | undefined;
}

/**
 * Who ended a channel: the caller (`close()`), the server (its process
 * exited, or was stopped by the daemon: idle, or the daemon was asked to
 * stop; `reason` says which), or the daemon vanished without a word (killed,
 * crashed) — then the next `openSharedServer` starts a new one.
 */
export type SharedChannelEnd = { by: "caller" } | { by: "server"; reason: string } | { by: "daemon-lost" };

/** One server process the daemon runs. */
export interface DaemonServerStatus {
  /** The name the first session gave it. */
  name: string;
  /**
   * That name, then the other names attached sessions give it (config
   * entries alike share one process). Absent from a daemon older than this field.
   */
  names?: string[];
  /** The share key (keyed hash, no secret in it). */
  key: string;
  pid: number;
  sessions: number;
  /** ISO time the server process started. */
  startedAt: string;
  /** ISO time its last session left, while it has none (it stops `idleTimeoutMs` later). */
  idleSince?: string;
}

export interface DaemonStatus {
  pid: number;
  /** ISO time the daemon started. */
  startedAt: string;
  uptimeMs: number;
  socketPath: string;
  logPath: string;
  servers: DaemonServerStatus[];
  /** Connections attached to servers right now. */
  sessions: number;
}

/** Whether servers can be shared on this platform, and why not when they cannot. */
export interface SharingSupport {
  supported: boolean;
  reason?: string;
}
