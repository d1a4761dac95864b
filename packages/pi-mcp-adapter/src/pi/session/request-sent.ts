/**
 * Runs work once a model request has left this process, so the work does
 * not hold the request up: Pi sends it with `fetch`, whose sent body Node
 * reports on the `undici:request:bodySent` diagnostics channel. A provider
 * that does not send through `fetch` gives no such signal: the work then
 * runs when Pi reports the response (`after_provider_response`), or when a
 * tool call needs what it makes, whichever `now()` comes first.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";

const BODY_SENT = "undici:request:bodySent";

export class AfterRequestSent {
  private pending: (() => void)[] = [];
  private readonly onSent = () => this.now();

  /** `work` runs (on a later event-loop turn) once the next request is sent, after any work still waiting. */
  schedule(work: () => void): void {
    if (this.pending.length === 0) subscribe(BODY_SENT, this.onSent);
    this.pending.push(work);
  }

  /** Runs the waiting work now (on the next turn, in the order it was scheduled), if any. */
  now(): void {
    const work = this.pending;
    if (work.length === 0) return;
    this.cancel();
    setImmediate(() => {
      for (const run of work) run();
    });
  }

  /** Drops the waiting work (the session ends). */
  cancel(): void {
    if (this.pending.length === 0) return;
    this.pending = [];
    unsubscribe(BODY_SENT, this.onSent);
  }
}
