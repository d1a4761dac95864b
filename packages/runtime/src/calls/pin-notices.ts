/**
 * When tool pinning tells the user that a server's tools changed, per
 * server: the first change at once, in full; changes after it, within
 * `PIN_NOTICE_INTERVAL_MS` of the last notice, are counted and told in one
 * summary line when the interval is over (the latest changes, how many
 * listings changed, since when). A server whose tools differ at every
 * listing so gets one notice a minute, not one per listing. Accepting a
 * server's tools starts it afresh; `close` tells what is still pending.
 */
import type { ToolChange } from "@pi-mcp-adapter/catalog";
import { toolChangeNotice, toolChangesSince } from "../format/tool-changes.js";

/** At most one notice per server in this interval (the first change is told at once). */
export const PIN_NOTICE_INTERVAL_MS = 60_000;

export interface PinNoticeTiming {
  now?: () => number;
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
  intervalMs?: number;
}

interface Pending {
  /** Listings with new changes since the last notice. */
  count: number;
  since: number;
  changes: readonly ToolChange[];
}

interface ServerNotices {
  lastToldAt: number;
  pending?: Pending;
  timer?: unknown;
}

export class PinNotices {
  private readonly servers = new Map<string, ServerNotices>();
  private readonly now: () => number;
  private readonly timers: NonNullable<PinNoticeTiming["timers"]>;
  private readonly intervalMs: number;

  constructor(
    private readonly notify: (message: string) => void,
    private readonly enforced: boolean,
    timing: PinNoticeTiming = {},
  ) {
    this.now = timing.now ?? Date.now;
    this.timers = timing.timers ?? { setTimeout, clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) };
    this.intervalMs = timing.intervalMs ?? PIN_NOTICE_INTERVAL_MS;
  }

  /** A listing of `server` showed changes different from the last it showed. */
  changed(server: string, changes: readonly ToolChange[]): void {
    const now = this.now();
    const state = this.servers.get(server);
    if (!state || (!state.pending && now - state.lastToldAt >= this.intervalMs)) {
      this.servers.set(server, { lastToldAt: now });
      this.notify(toolChangeNotice(server, changes, this.enforced));
      return;
    }
    const pending = state.pending ?? { count: 0, since: now, changes };
    state.pending = { ...pending, count: pending.count + 1, changes };
    if (state.timer === undefined) {
      state.timer = this.timers.setTimeout(
        () => this.flush(server),
        Math.max(0, state.lastToldAt + this.intervalMs - now),
      );
      (state.timer as { unref?: () => void } | undefined)?.unref?.();
    }
  }

  /** The user accepted `server`'s tools: nothing pending is told, and its next change is told at once. */
  accepted(server: string): void {
    const state = this.servers.get(server);
    if (state?.timer !== undefined) this.timers.clearTimeout(state.timer);
    this.servers.delete(server);
  }

  /** Tells what is pending now (the session ends) and stops the timers. */
  close(): void {
    for (const server of [...this.servers.keys()]) {
      try {
        this.flush(server);
      } catch {
        // A host whose session is already gone may refuse the notice; the shutdown goes on.
      }
    }
    this.servers.clear();
  }

  private flush(server: string): void {
    const state = this.servers.get(server);
    if (!state) return;
    if (state.timer !== undefined) this.timers.clearTimeout(state.timer);
    state.timer = undefined;
    const pending = state.pending;
    if (!pending) return;
    state.pending = undefined;
    state.lastToldAt = this.now();
    this.notify(toolChangesSince(server, pending.count, pending.since, pending.changes));
  }
}
