/**
 * How long a question across servers (a search, the prompt list) waits for
 * the first listings it started once some have answered: a server that has
 * not answered by then — one that never finishes `initialize`, say — is
 * left to list in the background ("still connecting") instead of holding
 * the answer up to its request timeout. The wait scales with the machine:
 * the longer of `STRAGGLER_MIN_WAIT_MS` and `STRAGGLER_FACTOR` × the time
 * the answers so far took, counted once every server of the round has
 * started (a server still queued behind the parallel limit is not late).
 */
export const STRAGGLER_MIN_WAIT_MS = 5_000;
export const STRAGGLER_FACTOR = 3;

export class StragglerWait {
  private readonly started = new Set<string>();
  private readonly settled = new Set<string>();
  private readonly begin = Date.now();
  private timer: NodeJS.Timeout | undefined;

  /** `onLate` runs at most once, when the servers still pending are late. */
  constructor(
    private readonly names: readonly string[],
    private readonly onLate: () => void,
  ) {}

  start(name: string): void {
    if (!this.names.includes(name)) return;
    this.started.add(name);
    this.arm();
  }

  settle(name: string): void {
    // A server outside the round (all of them, for a call by name) never makes the rest late.
    if (!this.names.includes(name)) return;
    this.settled.add(name);
    if (this.settled.size === this.names.length) this.stop();
    else this.arm();
  }

  /** Servers of the round that have not answered. */
  pending(): string[] {
    return this.names.filter((name) => !this.settled.has(name));
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    if (this.timer || this.settled.size === 0 || this.started.size < this.names.length) return;
    if (this.settled.size === this.names.length) return;
    const waited = Date.now() - this.begin;
    this.timer = setTimeout(this.onLate, Math.max(STRAGGLER_MIN_WAIT_MS, STRAGGLER_FACTOR * waited));
    this.timer.unref?.();
  }
}
