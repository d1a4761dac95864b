/**
 * The abort state of one request, without an `AbortController` unless one
 * is asked for. SDK v1's `Protocol.request` reads four things of a
 * request's signal — `aborted`, `reason`, `throwIfAborted()` and an
 * `abort` listener — so for that SDK this object itself serves as the
 * signal (`light`), and the per-request `AbortController` and
 * `EventTarget` listener (each 10–30 µs on code that runs once per model
 * turn) are skipped. Anything else gets a real `AbortSignal`, made on first
 * use and aborted along with this state.
 */

export class RequestAbort {
  aborted = false;
  reason: unknown;
  private listeners: (() => void)[] | undefined;
  private controller: AbortController | undefined;

  /** A real signal, aborted with this state (made on first use). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** This state as SDK v1 reads a request's signal (see the module comment); not for other consumers. */
  get light(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** As `AbortSignal`: a listener added after the abort is never called. */
  addEventListener(type: string, listener: () => void): void {
    if (type !== "abort" || this.aborted) return;
    this.listeners ??= [];
    this.listeners.push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    if (type === "abort") this.listeners = this.listeners?.filter((l) => l !== listener);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException("This operation was aborted", "AbortError");
    this.controller?.abort(this.reason);
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const listener of listeners) listener();
  }
}
