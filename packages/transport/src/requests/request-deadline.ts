/**
 * Our own request timeouts, in place of the SDKs' (both SDKs time a request
 * with one timer that `resetTimeoutOnProgress` restarts and that checks
 * `maxTotalTimeout` only when progress arrives; neither can pause). Each
 * request has two limits, counted in *active* time:
 *
 * - idle (`requestTimeoutMs`): no answer and no progress for this long ends it;
 *   a progress notification starts the idle window again;
 * - total (`maxTotalTimeoutMs`, never less than idle): the most it may take
 *   however often it reports progress.
 *
 * While the user is being asked something on a server's behalf (an
 * elicitation form, a sampling approval and the model's answer, a URL step
 * in the browser), every deadline of that server's connection is paused:
 * that time counts against neither limit. When the answer is sent the idle
 * window starts afresh, as after progress.
 *
 * A connection's deadlines share one timer, set for the earliest of them:
 * requests that follow each other on a connection have later limits than
 * the timer already set, so most requests start and end without a timer of
 * their own (a timer per request was a large share of a call's own cost in
 * a host that runs one call per model turn). The timer is unref'd: a
 * request in flight holds the process through its transport, not its
 * deadline.
 */

import { REAL_TIMERS, type Timers } from "../timers.js";
import { followSignal } from "./signal-followers.js";

/** Node's largest timer delay (a larger one fires at once). */
export const MAX_TIMER_MS = 2_147_483_647;

/** Default of `maxTotalTimeoutMs`: 10 minutes. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/** Which limit ended a request. */
export type DeadlineExpiry = "idle" | "total";

/** The limits of one request, in ms of active time. */
export interface DeadlineLimits {
  idleMs: number;
  totalMs: number;
}

/**
 * Abort without an `AbortSignal`: what our own request path follows instead
 * of a signal (an `AbortController` and an `abort` listener per request are
 * a large share of a call's own cost in a host that runs one call per turn).
 */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Calls `listener` with the reason when aborted (never if already aborted); returns the function that stops it. */
  onAbort(listener: (reason: unknown) => void): () => void;
}

/** The deadline of one request in flight. */
export interface RequestDeadline extends AbortSource {
  /** Aborted when a limit is reached or the caller's signal aborts; made when first read. */
  readonly signal: AbortSignal;
  /** The limit that ended the request, once one has. */
  readonly expired: DeadlineExpiry | undefined;
  readonly limits: DeadlineLimits;
  /** A progress notification for this request arrived: the idle window starts again. */
  progress(): void;
  /** The request ended (answered or failed): the timer goes. */
  end(): void;
}

/**
 * A request's options under its deadline (the caller's `signal` alone for an
 * untimed one), with no SDK timer that could fire: the SDKs read `signal`
 * (made then), our own request path follows `abort`.
 */
export function deadlineOptions(
  deadline: RequestDeadline | undefined,
  signal: AbortSignal | undefined,
): { signal?: AbortSignal; timeout: number; abort?: AbortSource } {
  if (!deadline) return { signal, timeout: MAX_TIMER_MS };
  return {
    get signal() {
      return deadline.signal;
    },
    timeout: MAX_TIMER_MS,
    abort: deadline,
  };
}

/** The deadlines of one connection's requests, paused together while the user is asked. */
export class RequestDeadlines {
  private readonly running = new Set<Deadline>();
  private holds = 0;
  private readonly now: () => number;
  private readonly timers: Timers;
  /** The shared timer and the time it fires at (a deadline due no earlier needs no timer of its own). */
  private timer: unknown;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(options: { now?: () => number; timers?: Timers } = {}) {
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? REAL_TIMERS;
  }

  /** Whether time is not counting now (somebody holds a pause). */
  get paused(): boolean {
    return this.holds > 0;
  }

  /**
   * Starts timing one request; `end()` it when it settles. With the caller's
   * `signal`, the deadline's signal also aborts when that one does, with its
   * reason (so the request needs one signal, not `AbortSignal.any`).
   */
  start(limits: DeadlineLimits, signal?: AbortSignal): RequestDeadline {
    const clamped = {
      idleMs: Math.min(limits.idleMs, MAX_TIMER_MS),
      totalMs: Math.min(Math.max(limits.totalMs, limits.idleMs), MAX_TIMER_MS),
    };
    const deadline = new Deadline(clamped, this.now, this);
    this.running.add(deadline);
    if (signal) deadline.follow(signal);
    if (!this.paused) deadline.resume();
    return deadline;
  }

  /**
   * Stops the clock of every request of this connection until the returned
   * function is called (once; later calls do nothing). Pauses nest: time
   * counts again when the last one is released.
   */
  pause(): () => void {
    if (this.holds++ === 0) for (const deadline of this.running) deadline.pause();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) for (const deadline of this.running) deadline.resume();
    };
  }

  /** A deadline is due at `at` (a time of `now()`): the shared timer fires by then. */
  schedule(at: number): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.timers.setTimeout(() => this.sweep(), Math.max(0, at - this.now()));
  }

  /** A deadline ended. The shared timer stays set: when it fires it finds nothing due, or the next request's. */
  forget(deadline: Deadline): void {
    this.running.delete(deadline);
  }

  /** The shared timer fired: deadlines due are checked, then the timer is set for the earliest left. */
  private sweep(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    for (const deadline of [...this.running]) {
      const due = deadline.dueAt;
      if (due !== undefined && due <= now) deadline.check();
    }
    let next = Number.POSITIVE_INFINITY;
    for (const deadline of this.running) {
      const due = deadline.dueAt;
      if (due !== undefined && due < next) next = due;
    }
    if (next !== Number.POSITIVE_INFINITY) this.schedule(next);
  }
}

class Deadline implements RequestDeadline {
  private controller: AbortController | undefined;
  aborted = false;
  reason: unknown;
  private listeners: Set<(reason: unknown) => void> | undefined;
  /** When (a time of `now()`) a limit is reached if nothing changes; undefined while not counting. */
  dueAt: number | undefined;
  /** Stops following the caller's signal. */
  private unfollow: (() => void) | undefined;
  /** Active time before the current running stretch. */
  private activeMs = 0;
  /** When the current running stretch began; undefined while paused. */
  private runningSince: number | undefined;
  /** Active time at which the current idle window began. */
  private idleFrom = 0;
  private ended = false;
  expired: DeadlineExpiry | undefined;

  constructor(
    readonly limits: DeadlineLimits,
    private readonly now: () => number,
    private readonly owner: RequestDeadlines,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) return () => {};
    this.listeners ??= new Set();
    this.listeners.add(listener);
    return () => this.listeners?.delete(listener);
  }

  /** The request aborts when `signal` does (until the request ends). */
  follow(signal: AbortSignal): void {
    this.unfollow = followSignal(signal, (reason) => this.abort(reason));
  }

  progress(): void {
    if (this.runningSince === undefined || this.expired) return; // a resume starts a fresh window anyway
    this.idleFrom = this.active();
    this.arm();
  }

  pause(): void {
    if (this.runningSince === undefined) return;
    this.activeMs = this.active();
    this.runningSince = undefined;
    this.dueAt = undefined;
  }

  resume(): void {
    if (this.runningSince !== undefined || this.expired || this.ended) return;
    this.runningSince = this.now();
    this.idleFrom = this.activeMs;
    this.arm();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.dueAt = undefined;
    this.runningSince = undefined;
    this.unfollow?.();
    this.owner.forget(this);
  }

  /** The shared timer found this deadline due: expire if a limit is really reached, else wait on. */
  check(): void {
    if (this.runningSince === undefined || this.expired) return;
    const active = this.active();
    if (active - this.idleFrom >= this.limits.idleMs) this.expire("idle");
    else if (active >= this.limits.totalMs) this.expire("total");
    else this.arm();
  }

  private active(): number {
    return this.activeMs + (this.runningSince === undefined ? 0 : this.now() - this.runningSince);
  }

  private arm(): void {
    const active = this.active();
    const left = Math.min(this.limits.idleMs - (active - this.idleFrom), this.limits.totalMs - active);
    this.dueAt = this.now() + Math.max(0, left);
    this.owner.schedule(this.dueAt);
  }

  private expire(which: DeadlineExpiry): void {
    this.expired = which;
    this.end();
    this.abort(new Error(`request deadline reached (${which})`));
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener(reason);
  }
}
