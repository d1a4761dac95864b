/**
 * The timers of a server slot: idle disconnect (never in the middle of a
 * request), health checks of resident servers, and reconnect with backoff.
 * The clock and timers are injected, so tests can drive them.
 */

import type { ServerConnection } from "../connection/server-connection.js";
import type { Timers } from "../timers.js";
import { type BackoffOptions, backoffDelay, DEFAULT_HEALTH_INTERVAL_MS } from "./lifecycle-policy.js";
import type { ServerSlot, SlotTimer } from "./server-slot.js";

export interface SlotTimerOptions {
  timers: Timers;
  now: () => number;
  healthIntervalMs?: number;
  backoff?: BackoffOptions;
}

export class SlotTimers {
  constructor(private readonly options: SlotTimerOptions) {}

  /**
   * Closes `connection` once it has been quiet for the slot's idle time (not
   * for resident slots); `closed` runs when it has closed.
   */
  armIdle(slot: ServerSlot, connection: ServerConnection, closed: () => void): void {
    const idleMs = slot.policy.idleMs;
    if (idleMs === undefined || slot.resident) return;
    const { timers, now } = this.options;
    const check = () => {
      slot.idleTimer = undefined;
      if (slot.connection !== connection || connection.closed) return;
      const quietFor = now() - connection.lastActivityAt;
      if (connection.activeRequests > 0 || quietFor < idleMs) {
        // Never cut a running request: look again once the quiet period could have elapsed.
        const wait = connection.activeRequests > 0 ? idleMs : idleMs - quietFor;
        slot.idleTimer = timers.setTimeout(check, Math.max(10, wait));
        return;
      }
      slot.connection = undefined;
      this.clear(slot, "healthTimer");
      void connection.close().finally(closed);
    };
    slot.idleTimer = timers.setTimeout(check, idleMs);
  }

  /** Pings a resident slot's connection every interval; one that stays silent is closed. */
  armHealth(slot: ServerSlot, connection: ServerConnection): void {
    if (!slot.resident) return;
    const { timers } = this.options;
    const interval = this.options.healthIntervalMs ?? DEFAULT_HEALTH_INTERVAL_MS;
    const tick = () => {
      slot.healthTimer = undefined;
      if (slot.connection !== connection || connection.closed) return;
      const healthy = () => {
        if (slot.connection === connection) slot.healthTimer = timers.setTimeout(tick, interval);
      };
      connection
        .ping({ timeoutMs: Math.min(interval, 10_000) })
        .then(healthy)
        .catch(async (error: unknown) => {
          if (slot.connection !== connection) return;
          // A server that answers ping with an error (e.g. method not found) is alive.
          if ((error as { code?: string }).code === "request_failed") return healthy();
          // Silent or gone: close it; the close handler schedules the reconnect.
          await connection.close().catch(() => {});
        });
    };
    slot.healthTimer = timers.setTimeout(tick, interval);
  }

  /** Runs `reconnect` after the next backoff delay, unless the slot is connected or connecting by then. */
  scheduleReconnect(slot: ServerSlot, reconnect: () => void): void {
    this.clear(slot, "reconnectTimer");
    const delay = backoffDelay(slot.attempt++, this.options.backoff);
    // Until the timer fires, use does not start the server either: the timer is its next try.
    slot.retryAt = this.options.now() + delay;
    slot.reconnectTimer = this.options.timers.setTimeout(() => {
      slot.reconnectTimer = undefined;
      if (slot.connection || slot.pending) return;
      reconnect();
    }, delay);
  }

  clear(slot: ServerSlot, ...keys: SlotTimer[]): void {
    for (const key of keys) {
      if (slot[key] !== undefined) this.options.timers.clearTimeout(slot[key]);
      slot[key] = undefined;
    }
  }
}
