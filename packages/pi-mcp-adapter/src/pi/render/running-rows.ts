/**
 * A running call's row in Pi's chat: its elapsed time and the latest
 * progress the server sent (`notifications/progress`, or a task's status
 * message), sent to the row as a partial result through the tool's
 * `onUpdate` (both Pi lines draw partial results with the tool's
 * renderer). The runtime reports progress by server and tool, not by call,
 * so each running row says which calls it may be: a direct tool its exact
 * server and tool, a proxy call the name the model gave (with or without
 * the server's prefix) and the server when it named one.
 */
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import type { McpStatusSnapshot } from "@pi-mcp-adapter/runtime/startup";

/** What a running row shows: since when it runs, and its latest progress line. */
export interface RunningState {
  startedAt: number;
  text?: string;
}

/** A partial result carrying the running state (the model never sees partial results). */
export interface RunningUpdate {
  content: { type: "text"; text: string }[];
  details: { running: RunningState };
}

/** `running 12s · 3/10 · indexing` (or `running` alone before the state is known). */
export function runningText(running: RunningState | undefined, now: number): string {
  if (!running) return "running";
  const seconds = Math.max(0, Math.floor((now - running.startedAt) / 1000));
  return `running ${seconds}s${running.text ? ` · ${running.text}` : ""}`;
}

/** Which calls a row may be: `tool` as the model named it, `server` when known. */
export interface RowTarget {
  server?: string;
  tool: string;
}

interface Row {
  target: RowTarget;
  state: RunningState;
  update(partial: RunningUpdate): void;
}

export class RunningRows {
  private readonly rows = new Set<Row>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Runs `call` with a row for `target` that progress reaches through
   * `update` (Pi's `onUpdate`; left out, nothing is shown). The row shows
   * its elapsed time from the start.
   */
  during<T>(
    target: RowTarget | undefined,
    update: ((partial: RunningUpdate) => void) | undefined,
    call: () => Promise<T>,
  ): Promise<T> {
    // Without a row (print and json modes), the call as is: no async layer of its own.
    if (!target || typeof update !== "function") return call();
    return this.withRow(target, update, call);
  }

  private async withRow<T>(
    target: RowTarget,
    update: (partial: RunningUpdate) => void,
    call: () => Promise<T>,
  ): Promise<T> {
    const row: Row = { target, state: { startedAt: this.now() }, update };
    this.rows.add(row);
    this.show(row);
    try {
      return await call();
    } finally {
      this.rows.delete(row);
    }
  }

  /** A progress line (`Host.progress`) for the rows of `server`'s `tool`; undefined (call ended) is ignored. */
  progress(server: string, tool: string, text: string | undefined): void {
    if (text === undefined) return;
    for (const row of this.matching(server, tool)) {
      if (row.state.text === text) continue;
      row.state = { ...row.state, text };
      this.show(row);
    }
  }

  /** The MCP tasks of a status snapshot: each task's status and latest message in its row. */
  tasks(snapshot: Pick<McpStatusSnapshot, "servers">): void {
    for (const server of snapshot.servers) {
      for (const task of server.tasks ?? []) {
        const state = task.status === "working" ? "" : ` ${task.status.replace("_", " ")}`;
        const message = task.message
          ? `: ${stripControlSequences(task.message).replace(/\s+/g, " ").trim()}`
          : "";
        this.progress(server.name, task.tool, `task${state}${message}`);
      }
    }
  }

  /** The rows a progress line of `server`'s `tool` belongs to: exact names first, else prefixed ones. */
  private matching(server: string, tool: string): Row[] {
    const s = loose(server);
    const t = loose(tool);
    const candidates = [...this.rows].filter(
      (row) => row.target.server === undefined || loose(row.target.server) === s,
    );
    const exact = candidates.filter((row) => loose(row.target.tool) === t);
    if (exact.length) return exact;
    // A prefixed name (`docs_search`, whatever the prefix mode) ends with the tool's own name.
    return candidates.filter((row) => {
      const named = loose(row.target.tool);
      return named.length > t.length && named.endsWith(t);
    });
  }

  private show(row: Row): void {
    try {
      row.update({ content: [], details: { running: row.state } });
    } catch {
      // a row that cannot be drawn must not break the call
    }
  }
}

/** Names compared the way the proxy resolves them: case, `-`, `_` and `.` do not matter. */
function loose(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}
