/**
 * How long a question across servers (a search, the prompt list) waits for
 * the first listings it started once some have answered: a server that has
 * not answered by then — one that never finishes `initialize`, say — is
 * left to list in the background ("still connecting") instead of holding
 * the answer up to its request timeout. The wait scales with the machine:
 * the longer of `STRAGGLER_MIN_WAIT_MS` and `STRAGGLER_FACTOR` × the time
 * the answers so far took, counted once every server of the round has
 * started (a server still queued behind the parallel limit is not late).
 * A server the question needs (a call names its tool) is never timed: it is
 * waited for as long as its connect takes, and the others only after it.
 */
export const STRAGGLER_MIN_WAIT_MS = 5_000;
export const STRAGGLER_FACTOR = 3;

/** The wait's terms (tests shorten them): the least wait, and the multiple of the answers' time. */
export interface StragglerTerms {
  minWaitMs?: number;
  factor?: number;
  /** The clock the answers' time is measured on (the session's); default `Date.now`. */
  now?: () => number;
}

export interface StragglerRound {
  /** The servers whose first listings may be given up on. */
  timed: readonly string[];
  /** Servers waited for in full before the question is answered without the late ones. */
  needed?: readonly string[];
}

export class StragglerWait {
  private readonly started = new Set<string>();
  private readonly settled = new Set<string>();
  private readonly begin: number;
  private timer: NodeJS.Timeout | undefined;
  private late = false;
  private fired = false;

  /** `onLate` runs at most once, when the timed servers still pending are late and every needed one answered. */
  constructor(
    private readonly round: StragglerRound,
    private readonly onLate: () => void,
    private readonly terms: StragglerTerms = {},
  ) {
    this.begin = this.now();
  }

  start(name: string): void {
    if (!this.inRound(name)) return;
    this.started.add(name);
    this.arm();
  }

  settle(name: string): void {
    // A server outside the round (all of them, for a call by name) never makes the rest late.
    if (!this.inRound(name)) return;
    this.settled.add(name);
    if (this.pending().length === 0) this.stop();
    else if (this.late) this.fire();
    else this.arm();
  }

  /** Timed servers of the round that have not answered. */
  pending(): string[] {
    return this.round.timed.filter((name) => !this.settled.has(name));
  }

  private inRound(name: string): boolean {
    return this.round.timed.includes(name) || (this.round.needed ?? []).includes(name);
  }

  private now(): number {
    return (this.terms.now ?? Date.now)();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    if (this.timer || this.settled.size === 0 || this.pending().length === 0) return;
    if (!this.round.timed.every((name) => this.started.has(name))) return;
    const waited = this.now() - this.begin;
    this.timer = setTimeout(
      () => {
        this.late = true;
        this.fire();
      },
      Math.max(
        this.terms.minWaitMs ?? STRAGGLER_MIN_WAIT_MS,
        (this.terms.factor ?? STRAGGLER_FACTOR) * waited,
      ),
    );
    this.timer.unref?.();
  }

  private fire(): void {
    if (this.fired || !(this.round.needed ?? []).every((name) => this.settled.has(name))) return;
    this.fired = true;
    this.onLate();
  }
}
