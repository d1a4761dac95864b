/**
 * A clock and timers that move only when a test says so, for code that takes
 * `now` and `timers` as options (request deadlines, server-slot timers). Time
 * never passes by itself: `advance(ms)` moves it and runs the timers that
 * fall due on the way, in order, including ones they set.
 */
export interface ManualClock {
  now(): number;
  readonly timers: {
    setTimeout(fn: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
  };
  /** Moves time forward by `ms`, running each timer due by then at its own moment. */
  advance(ms: number): void;
  /** Timers set and not yet run or cleared. */
  readonly pending: number;
}

export function manualClock(start = 1_000_000): ManualClock {
  let time = start;
  let nextId = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => time,
    timers: {
      setTimeout: (fn, ms) => {
        const id = ++nextId;
        due.set(id, { at: time + Math.max(0, ms), fn });
        return id;
      },
      clearTimeout: (handle) => {
        due.delete(handle as number);
      },
    },
    advance(ms) {
      const until = time + ms;
      for (;;) {
        const next = [...due.entries()]
          .filter(([, t]) => t.at <= until)
          .sort(([a, x], [b, y]) => x.at - y.at || a - b)[0];
        if (!next) break;
        due.delete(next[0]);
        time = next[1].at;
        next[1].fn();
      }
      time = until;
    },
    get pending() {
      return due.size;
    },
  };
}
