/**
 * A task's own deadline (`taskTimeoutMs`): one timer for the whole task that
 * stands still while the task waits for the user — while its status is
 * `input_required`, and while one of its questions is open in a dialog — so a
 * dialog left open never uses up the time the server has to work.
 */
export class TaskDeadline {
  private remaining: number;
  private startedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;
  private waiting = false;
  private holds = 0;

  constructor(
    budgetMs: number,
    private readonly expire: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.remaining = budgetMs;
    this.update();
  }

  /** The task's status says it waits for input (`input_required`), or works again. */
  pause(waiting: boolean): void {
    this.waiting = waiting;
    this.update();
  }

  /** Stops the clock until the returned release is called (a question open in a dialog). */
  hold(): () => void {
    this.holds++;
    this.update();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.update();
    };
  }

  /** Time left, counting the current run of the clock. */
  remainingMs(): number {
    return this.timer === undefined
      ? this.remaining
      : Math.max(0, this.remaining - (this.now() - this.startedAt));
  }

  clear(): void {
    this.done = true;
    this.update();
  }

  private update(): void {
    const run = !this.done && !this.waiting && this.holds === 0;
    if (!run && this.timer !== undefined) {
      this.remaining = this.remainingMs();
      clearTimeout(this.timer);
      this.timer = undefined;
    } else if (run && this.timer === undefined) {
      this.startedAt = this.now();
      this.timer = setTimeout(() => {
        this.done = true;
        this.timer = undefined;
        this.expire();
      }, this.remaining);
    }
  }
}
