/**
 * The MCP tasks running in this session, per server: what status screens
 * (`mcp({})`, the footer, the CLI) show while a long tool call runs. The call
 * pipeline reports each task call here (calls/task-calls.ts); the server set
 * announces a change as a status event of that server, so everything that
 * follows status follows tasks too. Each task a call starts is also told to
 * record listeners (`onRecord`: started, ended), which keep it durably
 * (task-records.ts), so a later process can follow it again.
 */
import type { TaskState, TaskUpdate } from "@pi-mcp-adapter/transport";
import type { TaskRecord, TaskRecordEvent } from "./task-records.js";

/** One running task as status screens show it. */
export interface RunningTask {
  taskId: string;
  /** The tool's own name (not prefixed). */
  tool: string;
  status: TaskState;
  /** The server's latest status message. */
  message?: string;
  /** When the call started (ms since epoch). */
  startedAt: number;
}

/** What a followed call knows of itself beyond server and tool. */
export interface FollowOptions {
  /** The host's id of the model's tool call. */
  callId?: string;
  /** Whether the task can outlive this process (see `TaskRecord.durable`). */
  durable?: boolean;
  /** Tell record listeners (default true); a task followed again is on record already. */
  record?: boolean;
}

/** Follows one task call: hand `onTask` to the call, `end()` once it settled. */
export interface TaskFollower {
  onTask(update: TaskUpdate): void;
  /** The call settled; `detached`: its task runs on on the server (its record stays open). */
  end(detached?: boolean): void;
}

export class RunningTasks {
  private readonly running = new Map<string, RunningTask[]>();
  private readonly listeners = new Set<(server: string) => void>();
  private readonly recordListeners = new Set<(event: TaskRecordEvent) => void>();
  /** The host's session, written into each record (`TaskRecord.session`). */
  session: string | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Hears each task a call starts and each that ends; returns the unsubscribe. Must not throw. */
  onRecord(listener: (event: TaskRecordEvent) => void): () => void {
    this.recordListeners.add(listener);
    return () => this.recordListeners.delete(listener);
  }

  /** Tells record listeners (a resumed task's end comes from its follower, calls/session-tasks.ts). */
  record(event: TaskRecordEvent): void {
    for (const listener of [...this.recordListeners]) {
      try {
        listener(event);
      } catch {
        // a listener's bug must not break a call
      }
    }
  }

  /** The tasks of `server` running now, oldest first. */
  of(server: string): RunningTask[] {
    return [...(this.running.get(server) ?? [])];
  }

  /** Hears each change of a server's running tasks; returns the unsubscribe. */
  onChange(listener: (server: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows a call of `tool` on `server`: it is listed from its first update until it ends. */
  follow(server: string, tool: string, options: FollowOptions = {}): TaskFollower {
    const startedAt = this.now();
    const recorded = options.record !== false;
    let entry: RunningTask | undefined;
    let taskId: string | undefined;
    return {
      onTask: (update) => {
        if (taskId === undefined && recorded)
          this.record({ kind: "started", record: this.recordOf(server, tool, update, startedAt, options) });
        taskId = update.taskId;
        if (entry && entry.status === update.status && entry.message === update.message) return;
        const next: RunningTask = {
          taskId: update.taskId,
          tool,
          status: update.status,
          ...(update.message !== undefined ? { message: update.message } : {}),
          startedAt,
        };
        const list = (this.running.get(server) ?? []).filter((t) => t !== entry);
        entry = next;
        // A task that reached its end is no longer running, though its call may still be reading the result.
        if (isRunning(next.status)) list.push(next);
        this.set(server, list);
      },
      end: (detached = false) => {
        if (taskId !== undefined && recorded && !detached) this.record({ kind: "ended", server, taskId });
        taskId = undefined;
        if (!entry) return;
        const list = this.running.get(server) ?? [];
        const left = list.filter((t) => t !== entry);
        entry = undefined;
        if (left.length !== list.length) this.set(server, left);
      },
    };
  }

  private recordOf(
    server: string,
    tool: string,
    update: TaskUpdate,
    startedAt: number,
    options: FollowOptions,
  ): TaskRecord {
    return {
      taskId: update.taskId,
      server,
      tool,
      revision: update.revision,
      ...(options.callId ? { callId: options.callId } : {}),
      ...(this.session ? { session: this.session } : {}),
      startedAt,
      durable: options.durable === true,
    };
  }

  private set(server: string, list: RunningTask[]): void {
    if (list.length) this.running.set(server, list);
    else this.running.delete(server);
    for (const listener of [...this.listeners]) {
      try {
        listener(server);
      } catch {
        // a listener's bug must not break a call
      }
    }
  }
}

function isRunning(status: TaskState): boolean {
  return status === "working" || status === "input_required";
}
