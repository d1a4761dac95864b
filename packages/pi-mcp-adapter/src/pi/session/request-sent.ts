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
  private pending: (() => void) | undefined;
  private readonly onSent = () => this.now();

  /** `work` runs (on a later event-loop turn) once the next request is sent; replaces any work still waiting. */
  schedule(work: () => void): void {
    if (!this.pending) subscribe(BODY_SENT, this.onSent);
    this.pending = work;
  }

  /** Runs the waiting work now (on the next turn), if any. */
  now(): void {
    const work = this.pending;
    if (!work) return;
    this.cancel();
    setImmediate(work);
  }

  /** Drops the waiting work (the session ends). */
  cancel(): void {
    if (!this.pending) return;
    this.pending = undefined;
    unsubscribe(BODY_SENT, this.onSent);
  }
}
