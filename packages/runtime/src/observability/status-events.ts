/**
 * Read-only status snapshots: the runtime hands them to its host's status
 * sink (`Host.status`), and the Pi shell publishes them for other extensions
 * on `pi.events` (its `MCP_STATUS_EVENT`). A snapshot is built from what the
 * runtime already knows: taking one never connects a server or starts auth,
 * and it carries no clients, transports, credentials or server definitions.
 */
import type { RefusedSkillEntry, SkippedList } from "@pi-mcp-adapter/catalog";
import type { ServerStatus, SharedState, StatusListener, TaskState } from "@pi-mcp-adapter/transport";
import type { RunningTask } from "./running-tasks.js";

/** A server as `AdapterRuntime.listings.summaries()` reports it: its status plus what is known without connecting. */
export interface ServerSummary extends ServerStatus {
  toolCount?: number;
  /** Resources and resource templates known for the server (live or cached listing), when listed. */
  resourceCount?: number;
  /** Prompts known for the server, when listed. */
  promptCount?: number;
  source: string;
  /** The server's instructions from its live or cached listing, if known; never connects to learn them. */
  instructions?: string;
  /** Declared lists (resources, templates, prompts) its last listing lacks, and why; absent when none. */
  skippedLists?: SkippedList[];
  /** Skill entries (SEP-2640) its last listing held that failed the checks, and why; absent when none. */
  refusedSkills?: RefusedSkillEntry[];
  /** MCP tasks this session started on the server that are still running (absent when none). */
  tasks?: RunningTask[];
}

/** What status snapshots are taken from (an `AdapterRuntime`'s sub-objects). */
export interface StatusSource {
  servers: { onStatus(listener: StatusListener): () => void };
  listings: {
    summaries(): ServerSummary[];
    /** Listings loaded or changed (counts move without a status change); optional. */
    onChange?(listener: (server: string) => void): () => void;
  };
  /** A server's running MCP tasks changed (started, new status, ended); optional. */
  tasks?: { onChange(listener: (server: string) => void): () => void };
}

/**
 * Server states a snapshot reports (the connection layer's states): the
 * documented `connected`, `cached`, `failed`, `needs-auth`, `not-connected`
 * and `disabled`, plus `connecting` while a connect is under way — an
 * addition consumers of the documented contract can ignore.
 */
export type McpServerState = ServerStatus["state"];

/** One server in a snapshot. Plain data (no zod): it is emitted by us, never parsed from input. */
export interface McpServerStatus {
  name: string;
  status: McpServerState;
  /** Tools known for the server (live or cached listing); 0 when not listed yet. */
  toolCount: number;
  disabled: boolean;
  /** Resources (and resource templates) known for the server; present once it has been listed (live or cached). */
  resourceCount?: number;
  /** Whole seconds since the last failure, while the server is failed. */
  failedAgoSeconds?: number;
  /** MCP tasks of this session still running on the server; present only while there are some. */
  tasks?: McpTaskStatus[];
  /** While connected, for a stdio server asked to be shared: the sessions sharing its process, or why it is not shared. */
  shared?: SharedState;
}

/** A running MCP task in a snapshot. */
export interface McpTaskStatus {
  taskId: string;
  /** The tool's own name. */
  tool: string;
  status: TaskState;
  /** The server's latest status message. */
  message?: string;
  /** Whole seconds since the call started. */
  runningSeconds: number;
}

export interface McpStatusSnapshot {
  /** Tools of every enabled server known so far. */
  totalTools: number;
  /** Resources (and resource templates) of every enabled server known so far. */
  totalResources: number;
  connectedCount: number;
  disabledCount: number;
  servers: McpServerStatus[];
}

/** The snapshot emitted on shutdown: no servers, all counts zero. */
export function emptyStatusSnapshot(): McpStatusSnapshot {
  return { totalTools: 0, totalResources: 0, connectedCount: 0, disabledCount: 0, servers: [] };
}

/** Builds a snapshot from `AdapterRuntime.listings.summaries()` (which never connects). */
export function statusSnapshot(servers: ServerSummary[], now = Date.now()): McpStatusSnapshot {
  const out: McpServerStatus[] = servers.map((s) => {
    const entry: McpServerStatus = {
      name: s.name,
      status: s.state,
      toolCount: s.toolCount ?? 0,
      disabled: s.state === "disabled",
    };
    if (s.resourceCount !== undefined) entry.resourceCount = s.resourceCount;
    if (s.shared) entry.shared = s.shared;
    if (s.state === "failed" && s.failedAt !== undefined) {
      entry.failedAgoSeconds = Math.max(0, Math.round((now - s.failedAt) / 1000));
    }
    if (s.tasks?.length) {
      entry.tasks = s.tasks.map(({ startedAt, ...task }) => ({
        ...task,
        runningSeconds: Math.max(0, Math.round((now - startedAt) / 1000)),
      }));
    }
    return entry;
  });
  return {
    totalTools: out.reduce((sum, s) => sum + (s.disabled ? 0 : s.toolCount), 0),
    totalResources: out.reduce((sum, s) => sum + (s.disabled ? 0 : (s.resourceCount ?? 0)), 0),
    connectedCount: out.filter((s) => s.status === "connected").length,
    disabledCount: out.filter((s) => s.disabled).length,
    servers: out,
  };
}

/**
 * Emits a snapshot now, after every status change of the runtime's servers,
 * after every listing change (tool and resource counts) and after every change
 * of their running tasks. Changes are batched per event-loop turn: the first
 * change of a turn is published at once, and any more in the same turn (e.g.
 * 38 servers listed from the cache for one search) once more when the turn
 * ends, so a burst of N changes costs two snapshots, not N. `emit` may throw;
 * that never reaches the connection layer. Returns the function that stops
 * watching (a snapshot still due is dropped). Ages (failed, running) are read on `now`, the session's clock.
 */
export function watchStatus(
  runtime: StatusSource,
  emit: (snapshot: McpStatusSnapshot) => void,
  now: () => number = Date.now,
): () => void {
  const publish = () => {
    try {
      emit(statusSnapshot(runtime.listings.summaries(), now()));
    } catch {
      // a subscriber's bug must not break the adapter
    }
  };
  let turn: ReturnType<typeof setImmediate> | undefined;
  let due = false;
  const changed = () => {
    if (turn) {
      due = true;
      return;
    }
    publish();
    turn = setImmediate(() => {
      turn = undefined;
      if (!due) return;
      due = false;
      publish();
    });
  };
  const stopStatus = runtime.servers.onStatus(changed);
  const stopListing = runtime.listings.onChange?.(changed);
  const stopTasks = runtime.tasks?.onChange(changed);
  publish();
  return () => {
    if (turn) clearImmediate(turn);
    turn = undefined;
    stopStatus();
    stopListing?.();
    stopTasks?.();
  };
}

/** Emits the empty snapshot that ends a runtime's status; a sink that throws cannot break shutdown. */
export function publishEmptyStatus(emit: (snapshot: McpStatusSnapshot) => void): void {
  try {
    emit(emptyStatusSnapshot());
  } catch {
    // a status sink's bug must not break shutdown
  }
}
