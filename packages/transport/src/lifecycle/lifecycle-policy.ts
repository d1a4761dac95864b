/**
 * What each lifecycle mode means for one server: when to connect, whether to
 * disconnect when idle, whether to health-check and reconnect by itself.
 */
import type { ServerDefinition } from "@pi-mcp-adapter/core";

export const DEFAULT_IDLE_TIMEOUT_MIN = 10;
export const DEFAULT_HEALTH_INTERVAL_MS = 30_000;
export const DEFAULT_START_TIMEOUT_MS = 30_000;

export interface LifecyclePolicy {
  /** Connect when the manager starts (eager, keep-alive). */
  connectAtStart: boolean;
  /** Disconnect after this long without requests; undefined = never. */
  idleMs: number | undefined;
  /** Ping every interval and reconnect with backoff when the connection is lost. */
  resident: boolean;
}

export function lifecyclePolicy(
  definition: ServerDefinition,
  defaultIdleTimeoutMin = DEFAULT_IDLE_TIMEOUT_MIN,
): LifecyclePolicy {
  const idle = (minutes: number | undefined) =>
    minutes === undefined || minutes <= 0 ? undefined : Math.round(minutes * 60_000);
  switch (definition.lifecycle) {
    case "eager":
      return { connectAtStart: true, idleMs: idle(definition.idleTimeoutMin), resident: false };
    case "keep-alive":
      return { connectAtStart: true, idleMs: undefined, resident: true };
    case "lazy-keep-alive":
      return { connectAtStart: false, idleMs: undefined, resident: true };
    default:
      return {
        connectAtStart: false,
        idleMs: idle(definition.idleTimeoutMin ?? defaultIdleTimeoutMin),
        resident: false,
      };
  }
}

/**
 * How long a server that failed to start (spawn, `initialize`, HTTP) is left
 * alone before a call may start it again: `initialMs` after the first
 * failure, doubling per failure in a row up to `maxMs`. A server that was up
 * and crashed is not held back: the next call starts it, and only a failure
 * of that start opens the window. Explicit reconnects (`reconnect(name)`)
 * ignore it.
 */
export interface FailureBackoffOptions {
  /** Default 30 s. */
  initialMs?: number;
  /** Default 60 s. */
  maxMs?: number;
}

/** The quiet window after `failures` (≥ 1) failures in a row. No jitter: it is a promise shown to the user. */
export function failureWindow(failures: number, options: FailureBackoffOptions = {}): number {
  const initial = options.initialMs ?? 30_000;
  const max = Math.max(initial, options.maxMs ?? 60_000);
  return Math.min(max, initial * 2 ** Math.min(Math.max(failures - 1, 0), 20));
}

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
}

/** Delay before reconnect attempt `attempt` (0-based): doubling, capped, with ±20 % jitter. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, random = Math.random): number {
  const initial = options.initialMs ?? 1000;
  const max = options.maxMs ?? 30_000;
  const base = Math.min(max, initial * 2 ** Math.min(attempt, 20));
  return Math.round(base * (0.8 + 0.4 * random()));
}
