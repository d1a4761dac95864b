/**
 * A `!command` secret that stays fresh for a long session: the value the
 * command printed is served for `ttlMs`, then the command runs again (once,
 * however many requests ask at the same moment). When a re-run fails, the
 * last good value keeps being served and a warning says why (never the
 * value); the command is tried again after a shorter pause. `renew()` re-runs
 * it at once — what a 401 from the server calls for.
 */

/** How long a command's value is served before the command runs again, unless configured. */
export const DEFAULT_SECRET_TTL_MS = 5 * 60_000;
/** After a failed re-run, the next attempt waits at most this long. */
const RETRY_AFTER_FAILURE_MS = 30_000;

export interface RefreshingSecretOptions {
  /** Runs the command; its errors carry a message without the output. */
  run: () => Promise<string>;
  /** The value the first run printed. */
  initial: string;
  ttlMs?: number;
  now?: () => number;
  /** Hears a failed re-run (the message names the server and field, never the value). */
  warn?: (message: string) => void;
}

export class RefreshingSecret {
  private value: string;
  private freshUntil: number;
  private running: Promise<void> | undefined;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: RefreshingSecretOptions) {
    this.value = options.initial;
    this.ttlMs = options.ttlMs ?? DEFAULT_SECRET_TTL_MS;
    this.now = options.now ?? Date.now;
    this.freshUntil = this.now() + this.ttlMs;
  }

  /** The value to send now: re-run first when it is older than the TTL. */
  async current(): Promise<string> {
    if (this.now() >= this.freshUntil) await this.rerun();
    return this.value;
  }

  /** Re-runs the command now; true when it printed something new. */
  async renew(): Promise<boolean> {
    const before = this.value;
    await this.rerun();
    return this.value !== before;
  }

  private rerun(): Promise<void> {
    this.running ??= this.options
      .run()
      .then(
        (value) => {
          this.value = value;
          this.freshUntil = this.now() + this.ttlMs;
        },
        (error: unknown) => {
          this.freshUntil = this.now() + Math.min(this.ttlMs, RETRY_AFTER_FAILURE_MS);
          this.options.warn?.(`${(error as Error).message}; still sending the value it printed before`);
        },
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
