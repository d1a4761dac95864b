/**
 * Durable records of the MCP tasks a session started, so a later process
 * can follow them again (calls/session-tasks.ts): what a record holds, how
 * records read back from untrusted storage (a host's session entries, the
 * journal file), and the journal in the agent dir — one user-only JSON file
 * written atomically under a lock (several Pi processes share it), bounded,
 * and pruned of records that ended or are too old to matter.
 */
import { readFile } from "node:fs/promises";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import type { TaskRevision } from "@pi-mcp-adapter/transport";

/** One task a tool call started: enough to follow it again from another process. */
export interface TaskRecord {
  taskId: string;
  server: string;
  /** The tool's own name (not prefixed). */
  tool: string;
  /** The task protocol it was started on; it is followed again on the same one. */
  revision: TaskRevision;
  /** The host's id of the model's tool call that started it (Pi's `toolCallId`), when known. */
  callId?: string;
  /** The host's session that started it, when the host names one. */
  session?: string;
  /** When the task was first seen (ms since epoch). */
  startedAt: number;
  /**
   * Whether the task can outlive this process: a remote (HTTP) server, or a
   * shared one (the daemon keeps its process). A session's own stdio child
   * ends with the session, and its tasks with it.
   */
  durable: boolean;
}

/** A record's life as a host stores it (Pi session entries): started, then ended. */
export type TaskRecordEvent =
  | { kind: "started"; record: TaskRecord }
  | {
      kind: "ended";
      server: string;
      taskId: string;
      /** For a task followed again after a restart, what its call returned (the call that started it is gone). */
      outcome?: ResumedOutcome;
    };

/** What a task followed again after a restart came to, as the model reads it. */
export interface ResumedOutcome {
  status: "completed" | "failed" | "cancelled" | "lost";
  text: string;
  isError: boolean;
  callId?: string;
  tool: string;
  server: string;
}

/** At most this many records are kept; the oldest go first. */
export const MAX_TASK_RECORDS = 100;
/** Records older than this are dropped: no server keeps a task's result this long. */
export const TASK_RECORD_MAX_AGE_MS = 7 * 24 * 60 * 60_000;

/** The journal's file name in the agent dir. */
export const TASK_JOURNAL_FILE_NAME = "mcp-tasks.json";

/** The valid records among `values` (a session entry or file may hold anything). */
export function parseTaskRecords(values: readonly unknown[]): TaskRecord[] {
  const records: TaskRecord[] = [];
  for (const value of values) {
    const record = parseTaskRecord(value);
    if (record) records.push(record);
  }
  return records;
}

function parseTaskRecord(value: unknown): TaskRecord | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const text = (key: string) =>
    typeof v[key] === "string" && v[key] !== "" ? (v[key] as string) : undefined;
  const taskId = text("taskId");
  const server = text("server");
  const tool = text("tool");
  const revision = v.revision === "2025-11-25" || v.revision === "2026-07-28" ? v.revision : undefined;
  if (!taskId || !server || !tool || !revision || typeof v.startedAt !== "number") return undefined;
  const callId = text("callId");
  const session = text("session");
  return {
    taskId,
    server,
    tool,
    revision,
    ...(callId ? { callId } : {}),
    ...(session ? { session } : {}),
    startedAt: v.startedAt,
    durable: v.durable === true,
  };
}

/** The same task: one server's task id. */
export function sameTask(a: Pick<TaskRecord, "server" | "taskId">, b: Pick<TaskRecord, "server" | "taskId">) {
  return a.server === b.server && a.taskId === b.taskId;
}

/** The journal file of running task records; `file` undefined keeps none (every method is then a no-op). */
export class TaskJournal {
  constructor(
    private readonly file: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The records on file, pruned (too old ones dropped). */
  async read(): Promise<TaskRecord[]> {
    if (!this.file) return [];
    return this.prune(await this.load());
  }

  add(record: TaskRecord): Promise<void> {
    return this.update((records) => [...records.filter((r) => !sameTask(r, record)), record]);
  }

  remove(task: Pick<TaskRecord, "server" | "taskId">): Promise<void> {
    return this.update((records) => records.filter((r) => !sameTask(r, task)));
  }

  private async update(change: (records: TaskRecord[]) => TaskRecord[]): Promise<void> {
    const file = this.file;
    if (!file) return;
    try {
      await withFileLock(file, async () => {
        const records = this.prune(change(await this.load())).slice(-MAX_TASK_RECORDS);
        await writeFileAtomic(file, `${JSON.stringify({ version: 1, tasks: records }, null, 1)}\n`, {
          mode: 0o600,
        });
      });
    } catch {
      // The session's own entries still hold the record; the journal is the second copy.
    }
  }

  private async load(): Promise<TaskRecord[]> {
    try {
      const data = JSON.parse(await readFile(this.file as string, "utf8")) as { tasks?: unknown };
      return Array.isArray(data.tasks) ? parseTaskRecords(data.tasks) : [];
    } catch {
      return []; // missing or unreadable: starts afresh
    }
  }

  private prune(records: TaskRecord[]): TaskRecord[] {
    const oldest = this.now() - TASK_RECORD_MAX_AGE_MS;
    return records.filter((r) => r.startedAt >= oldest);
  }
}
