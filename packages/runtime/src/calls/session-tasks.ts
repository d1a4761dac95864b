/**
 * The session's MCP tasks as hosts see them (`runtime.tasks`): the ones
 * running now (observability/running-tasks.ts), their records (kept in the
 * agent dir's journal here, and told to the host, which keeps them with its
 * session), and following again the tasks an earlier process started and
 * did not see end — after a crash, `pi --continue` or `/resume`. A task
 * followed again is listed as running (status, panel) and can be cancelled;
 * its result, bounded by the output guard like any call's, goes to the host
 * as the outcome of the call that started it (`TaskRecordEvent` "ended").
 */
import type { ToolCallResult } from "@pi-mcp-adapter/core";
import { type ServerConnection, TransportError } from "@pi-mcp-adapter/transport";
import type { RunningTasks } from "../observability/running-tasks.js";
import {
  parseTaskRecords,
  type ResumedOutcome,
  sameTask,
  TaskJournal,
  type TaskRecord,
  type TaskRecordEvent,
} from "../observability/task-records.js";
import type { ServerSet } from "../servers/server-set.js";
import type { CallResult } from "./call-result.js";
import type { Calls } from "./calls.js";

/** What following tasks again needs of the server set: running tasks, connections, definitions. */
type TaskServers = Pick<ServerSet, "tasks" | "get" | "definition" | "closing">;

export class SessionTasks {
  /** Tasks followed again, by `server\0taskId`: their stop. */
  private readonly resumed = new Map<string, AbortController>();
  private readonly following: Promise<void>[] = [];
  private journalWrites: Promise<void> = Promise.resolve();

  private readonly parts: {
    running: RunningTasks;
    journal: TaskJournal;
    connection: (server: string) => Promise<ServerConnection>;
    configured: (server: string) => boolean;
    /** True once the session is ending: a task cut off then is left for a later session. */
    closing: () => boolean;
    guard: (raw: ToolCallResult, context: { server: string; tool: string }) => Promise<CallResult>;
  };

  /** `guard` bounds a result like any call's (the output guard); without `journal` records go to the host only. */
  constructor(set: TaskServers, guard: Pick<Calls, "guardOutput">, journal = new TaskJournal(undefined)) {
    this.parts = {
      running: set.tasks,
      journal,
      connection: (server) => set.get(server),
      closing: () => set.closing,
      configured: (server) => {
        const definition = set.definition(server);
        return definition !== undefined && definition.disabled !== true;
      },
      guard: (raw, context) => guard.guardOutput(raw, context),
    };
    const { running } = this.parts;
    // The journal follows every record, in order.
    running.onRecord((event) => {
      this.journalWrites = this.journalWrites.then(() =>
        event.kind === "started" ? journal.add(event.record) : journal.remove(event),
      );
    });
  }

  /** The tasks of `server` running now, oldest first (resumed ones included). */
  of(server: string) {
    return this.parts.running.of(server);
  }

  /** Hears each change of a server's running tasks; returns the unsubscribe. */
  onChange(listener: (server: string) => void): () => void {
    return this.parts.running.onChange(listener);
  }

  /**
   * Hears each task a call starts and each that ends (a resumed one with its
   * outcome); a host stores them with its session. Returns the unsubscribe; must not throw.
   */
  onRecord(listener: (event: TaskRecordEvent) => void): () => void {
    return this.parts.running.onRecord(listener);
  }

  /** Names the host's session, written into each new record (and matched in the journal). */
  setSession(session: string | undefined): void {
    this.parts.running.session = session;
  }

  /**
   * Follows again the tasks of `entries` (records a host stored: started
   * ones not ended) and those of this session in the journal. Resolves once
   * each has been checked once (its first status, or its end), so a host can
   * let the model's next request see what already finished.
   */
  async resume(entries: readonly unknown[]): Promise<void> {
    const session = this.parts.running.session;
    const fromJournal = session ? (await this.parts.journal.read()).filter((r) => r.session === session) : [];
    const records: TaskRecord[] = [];
    for (const record of [...parseTaskRecords(entries), ...fromJournal]) {
      if (records.some((r) => sameTask(r, record)) || this.resumed.has(keyOf(record))) continue;
      records.push(record);
    }
    await Promise.all(records.map((record) => this.follow(record)));
  }

  /** Cancels a task followed again (`tasks/cancel`); false when no such task is followed here. */
  cancel(server: string, taskId: string): boolean {
    const stop = this.resumed.get(keyOf({ server, taskId }));
    stop?.abort();
    return stop !== undefined;
  }

  /** Resolves once the journal holds every record told so far (at shutdown, after the connections closed). */
  flush(): Promise<void> {
    return this.journalWrites;
  }

  /** Resolves once every task followed again has ended (and the journal is written). */
  async settled(): Promise<void> {
    await Promise.all(this.following);
    await this.journalWrites;
  }

  /** Follows one record; resolves at its first status or its end. */
  private follow(record: TaskRecord): Promise<void> {
    const { server, tool, taskId } = record;
    let checked!: () => void;
    const firstCheck = new Promise<void>((resolve) => {
      checked = resolve;
    });
    if (!record.durable || !this.parts.configured(server)) {
      this.end(record, lostOutcome(record, this.parts.configured(server)));
      return Promise.resolve();
    }
    const stop = new AbortController();
    this.resumed.set(keyOf(record), stop);
    const follower = this.parts.running.follow(server, tool, { record: false });
    const run = (async () => {
      try {
        const connection = await this.parts.connection(server);
        const raw = await connection.resumeTask(tool, taskId, record.revision, {
          signal: stop.signal,
          onTask: (update) => {
            follower.onTask(update);
            // Still running: checked. A task that ended is checked once its result is read.
            if (update.status === "working" || update.status === "input_required") checked();
          },
        });
        const guarded = await this.parts.guard(raw, { server, tool });
        this.end(record, outcomeOf(record, "completed", textOf(guarded), guarded.isError === true));
        checked();
      } catch (error) {
        // The session ended first (its connection closed): the task runs on, for a later session to follow.
        if (error instanceof TransportError && error.code === "task_detached" && this.parts.closing())
          return checked();
        const cancelled = stop.signal.aborted;
        const why = error instanceof Error ? error.message : String(error);
        const text = cancelled
          ? `The MCP task ${taskId} (${tool} on ${server}) was cancelled.`
          : `The MCP task ${taskId} (${tool} on ${server}) could not be followed after the restart: ${why}`;
        this.end(record, outcomeOf(record, cancelled ? "cancelled" : "failed", text, true));
        checked();
      } finally {
        follower.end();
        this.resumed.delete(keyOf(record));
      }
    })();
    this.following.push(run);
    return firstCheck;
  }

  private end(record: TaskRecord, outcome: ResumedOutcome): void {
    this.parts.running.record({ kind: "ended", server: record.server, taskId: record.taskId, outcome });
  }
}

function keyOf(task: Pick<TaskRecord, "server" | "taskId">): string {
  return `${task.server}\u0000${task.taskId}`;
}

function outcomeOf(
  record: TaskRecord,
  status: ResumedOutcome["status"],
  text: string,
  isError: boolean,
): ResumedOutcome {
  return {
    status,
    text,
    isError,
    tool: record.tool,
    server: record.server,
    ...(record.callId ? { callId: record.callId } : {}),
  };
}

function lostOutcome(record: TaskRecord, configured: boolean): ResumedOutcome {
  const { taskId, tool, server } = record;
  const why = configured
    ? `${server} ran as this session's own process (stdio), which ended with the earlier Pi process, and its tasks with it`
    : `${server} is no longer configured or is disabled`;
  const text = `The MCP task ${taskId} (${tool} on ${server}) was lost: ${why}. Run the tool again if its result is still needed.`;
  return outcomeOf(record, "lost", text, true);
}

/** The text the model reads of a guarded result: its text blocks, other blocks named. */
function textOf(result: CallResult): string {
  return result.content
    .map((block) => (block.type === "text" ? (block as { text: string }).text : `[${block.type}]`))
    .join("\n");
}
