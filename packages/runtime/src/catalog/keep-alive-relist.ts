/**
 * Keep-alive servers are listed again on a schedule, besides the pings that
 * keep them alive: a server that changes its tools without sending
 * `list_changed` is seen within one interval (default 5 minutes; settings
 * `keepAliveRelistMinutes`, `0` turns it off). Each tick asks for one more
 * listing of every `keep-alive` / `lazy-keep-alive` server that is connected
 * and was listed this session, through the list-changed queue (one listing at
 * a time per server; a failure keeps the old list). Servers that are not
 * connected are not started for it. The timers are injected so tests drive them.
 */
import type { ServerSet } from "../servers/server-set.js";

export const DEFAULT_KEEP_ALIVE_RELIST_MS = 5 * 60_000;

/** The schedule's terms: the interval (`0` turns it off) and the timers (default Node's, unref'd). */
export interface KeepAliveRelistTerms {
  intervalMs?: number;
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
}

const NODE_TIMERS: Required<KeepAliveRelistTerms>["timers"] = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class KeepAliveRelist {
  private timer: unknown;
  private stopped = false;
  private readonly timers: Required<KeepAliveRelistTerms>["timers"];
  private readonly intervalMs: number;

  constructor(
    private readonly servers: ServerSet,
    /** Asks for one more listing of a server this session listed (the list-changed queue). */
    private readonly relist: (server: string) => void,
    terms: KeepAliveRelistTerms = {},
  ) {
    this.timers = terms.timers ?? NODE_TIMERS;
    this.intervalMs = terms.intervalMs ?? DEFAULT_KEEP_ALIVE_RELIST_MS;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.stopped || this.intervalMs <= 0) return;
    this.timer = this.timers.setTimeout(() => this.tick(), this.intervalMs);
  }

  private tick(): void {
    for (const name of this.servers.names()) {
      const lifecycle = this.servers.definition(name)?.lifecycle;
      if (lifecycle !== "keep-alive" && lifecycle !== "lazy-keep-alive") continue;
      if (this.servers.connection(name)) this.relist(name);
    }
    this.arm();
  }
}
