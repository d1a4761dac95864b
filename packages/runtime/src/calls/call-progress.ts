/**
 * What the user sees of a running call's progress: the server's
 * `notifications/progress` as one line ("3/10 · indexing files"), at most
 * one update a second (the first at once, the latest of a busy second when
 * it is over), then a clear when the call ends. Hosts show the line where
 * they show passing state (Pi's status line, the CLI's stderr).
 */
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";

/** One progress notification of a call, as the transport delivers it. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Where progress lines go: `text` is undefined when the call has ended (clear what was shown). */
export type ProgressSink = (server: string, tool: string, text: string | undefined) => void;

/** The clock and timers of the throttle; real ones by default. */
export interface ProgressClock {
  now(): number;
  timers: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
}

/** The least time between two updates shown for one call. */
export const PROGRESS_INTERVAL_MS = 1000;

const MAX_MESSAGE_CHARS = 120;

const REAL_CLOCK: ProgressClock = {
  now: Date.now,
  timers: {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  },
};

/** The line for one update: `progress/total` (or the count alone) and the server's message, made safe. */
export function progressText(update: ProgressUpdate): string {
  const count =
    update.total !== undefined && update.total > 0
      ? `${update.progress}/${update.total}`
      : `${update.progress}`;
  const raw =
    update.message === undefined ? "" : stripControlSequences(update.message).replace(/\s+/g, " ").trim();
  const message = raw.length > MAX_MESSAGE_CHARS ? `${raw.slice(0, MAX_MESSAGE_CHARS - 1)}…` : raw;
  return message ? `${count} · ${message}` : count;
}

/** The progress of one call: `report` each update, `end` once the call settled. */
export interface CallProgress {
  report(update: ProgressUpdate): void;
  end(): void;
}

export function callProgress(
  sink: ProgressSink,
  server: string,
  tool: string,
  clock: ProgressClock = REAL_CLOCK,
): CallProgress {
  let shownAt: number | undefined;
  let pending: string | undefined;
  let timer: unknown;
  let ended = false;
  const show = (text: string) => {
    shownAt = clock.now();
    pending = undefined;
    safely(() => sink(server, tool, text));
  };
  const flush = () => {
    timer = undefined;
    if (pending !== undefined && !ended) show(pending);
  };
  return {
    report(update) {
      if (ended) return;
      const text = progressText(update);
      const wait = shownAt === undefined ? 0 : shownAt + PROGRESS_INTERVAL_MS - clock.now();
      if (wait <= 0 && timer === undefined) {
        show(text);
        return;
      }
      pending = text;
      timer ??= clock.timers.setTimeout(flush, Math.max(0, wait));
    },
    end() {
      if (ended) return;
      ended = true;
      if (timer !== undefined) clock.timers.clearTimeout(timer);
      if (shownAt !== undefined) safely(() => sink(server, tool, undefined));
    },
  };
}

/** A host's progress sink must not throw; if it does, the call is not disturbed. */
function safely(run: () => void): void {
  try {
    run();
  } catch {
    // a sink's bug must not break the call
  }
}
