/**
 * A task's own deadline (`taskTimeoutMs`): one timer for the whole task that
 * stands still while the task waits for the user (`input_required`), so a
 * dialog left open never uses up the time the server has to work.
 */
export class TaskDeadline {
  private remaining: number;
  private startedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;

  constructor(
    budgetMs: number,
    private readonly expire: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.remaining = budgetMs;
    this.resume();
  }

  /** Stops the clock while `paused` (the task waits for input), runs it otherwise. */
  pause(paused: boolean): void {
    if (paused) this.halt();
    else this.resume();
  }

  /** Time left, counting the current run of the clock. */
  remainingMs(): number {
    return this.timer === undefined
      ? this.remaining
      : Math.max(0, this.remaining - (this.now() - this.startedAt));
  }

  clear(): void {
    this.done = true;
    this.halt();
  }

  private halt(): void {
    if (this.timer === undefined) return;
    this.remaining = this.remainingMs();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private resume(): void {
    if (this.done || this.timer !== undefined) return;
    this.startedAt = this.now();
    this.timer = setTimeout(() => {
      this.done = true;
      this.timer = undefined;
      this.expire();
    }, this.remaining);
  }
}
