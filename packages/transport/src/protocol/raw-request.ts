/**
 * Requests sent below the SDK client on a 2026-07-28 connection. SDK v2's
 * wire codec rejects task shapes (a `tools/call` answered with
 * `resultType: "task"`, the `tasks/*` methods), so the task methods go out
 * here: our own string ids, answers taken off the transport before the SDK
 * sees them. Attach after the client connected (it chains the SDK's handler).
 * The caller frames `_meta` (protocol version, client info and capabilities);
 * the HTTP transport derives its `Mcp-Method` / `Mcp-Name` headers from it.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RawRequest, RawResponse } from "./protocol-client.js";
import { tapTransport } from "./transport-tap.js";

const ID_PREFIX = "pi-mcp-task-";

interface Pending {
  resolve: (response: RawResponse) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  release: () => void;
}

export class RawRequestChannel {
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  constructor(private readonly transport: Transport) {
    tapTransport(
      transport,
      (message) => this.take(message),
      () => {
        this.failAll(new Error("connection closed"));
      },
    );
  }

  /**
   * Sends one request; resolves with its answer. The signal ends the wait,
   * except for `tools/call`: a task the server created meanwhile must still
   * be seen (and cancelled) by the caller, so its answer is awaited until
   * the timeout.
   */
  readonly request: RawRequest = (request, o) => {
    const id = `${ID_PREFIX}${++this.next}`;
    const signal = request.method === "tools/call" ? undefined : o.signal;
    return new Promise<RawResponse>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => this.settle(id, () => reject(abortError(signal as AbortSignal)));
      const timer = setTimeout(
        () => this.settle(id, () => reject(new Error(`${request.method} timed out after ${o.timeout} ms`))),
        o.timeout,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve,
        reject,
        timer,
        release: () => signal?.removeEventListener("abort", onAbort),
      });
      this.transport
        .send({ jsonrpc: "2.0", id, ...request } as never)
        .catch((error: unknown) => this.settle(id, () => reject(toError(error))));
    });
  };

  /** Consumes an answer to one of our requests; anything else goes on to the SDK. */
  private take(message: unknown): boolean {
    const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: RawError };
    if (typeof m?.id !== "string" || !m.id.startsWith(ID_PREFIX) || "method" in m) return false;
    const entry = this.pending.get(m.id);
    this.settle(m.id, () => {
      if (m.error) entry?.resolve({ kind: "error", error: m.error });
      else entry?.resolve({ kind: "result", result: m.result });
    });
    return true;
  }

  private settle(id: string, then: () => void): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.release();
    then();
  }

  private failAll(error: Error): void {
    for (const [id, entry] of [...this.pending]) this.settle(id, () => entry.reject(error));
  }
}

type RawError = { code: number; message: string; data?: unknown };

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("aborted", "AbortError");
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
