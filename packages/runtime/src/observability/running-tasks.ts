/**
 * The MCP tasks running in this session, per server: what status screens
 * (`mcp({})`, the footer, the CLI) show while a long tool call runs. The call
 * pipeline reports each task call here (calls/task-calls.ts); the server set
 * announces a change as a status event of that server, so everything that
 * follows status follows tasks too. Memory only: a task the session did not
 * start is not here.
 */
import type { TaskState, TaskUpdate } from "@pi-mcp-adapter/transport";

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

/** Follows one task call: hand `onTask` to the call, `end()` once it settled. */
export interface TaskFollower {
  onTask(update: TaskUpdate): void;
  end(): void;
}

export class RunningTasks {
  private readonly running = new Map<string, RunningTask[]>();
  private readonly listeners = new Set<(server: string) => void>();

  constructor(private readonly now: () => number = Date.now) {}

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
  follow(server: string, tool: string): TaskFollower {
    const startedAt = this.now();
    let entry: RunningTask | undefined;
    return {
      onTask: (update) => {
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
      end: () => {
        if (!entry) return;
        const list = this.running.get(server) ?? [];
        const left = list.filter((t) => t !== entry);
        entry = undefined;
        if (left.length !== list.length) this.set(server, left);
      },
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
