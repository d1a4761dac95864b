/**
 * Retries of reads that met a transient failure, below either SDK: a `fetch`
 * wrapper for Streamable HTTP and SSE posts. A POST whose JSON-RPC request
 * only reads (lists, `resources/read`, `prompts/get`, `completion/complete`,
 * `ping`) and is answered 408, 429 or 5xx, or whose connection dropped before
 * an answer, is sent again — at most twice, after 250 ms and then 1 s, or
 * after the server's `Retry-After` (capped at 10 s). `tools/call` and every
 * other request go out once: the server may have run them.
 */
import type { FetchLike } from "./http-shape-probe.js";
import { isTransientStatus, tlsFailure } from "./http-status.js";

/** The requests that change nothing on the server, so sending one twice is harmless. */
export const RETRIED_METHODS: ReadonlySet<string> = new Set([
  "ping",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
]);

export const READ_RETRIES = 2;
export const READ_RETRY_DELAYS_MS = [250, 1000] as const;
export const MAX_RETRY_AFTER_MS = 10_000;

/** Waits `ms`, or rejects when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ReadRetryOptions {
  sleep?: Sleep;
  /** The clock `Retry-After` dates are read against. Default `Date.now`. */
  now?: () => number;
}

export function retryTransientReads(inner: FetchLike = fetch, options: ReadRetryOptions = {}): FetchLike {
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  return async (input, init) => {
    if (init?.method !== "POST" || !isRetriedRead(init.body)) return inner(input, init);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= READ_RETRIES;
      const backoff = READ_RETRY_DELAYS_MS[attempt] ?? MAX_RETRY_AFTER_MS;
      let response: Response;
      try {
        response = await inner(input, init);
      } catch (error) {
        if (last || init.signal?.aborted || !isDroppedConnection(error)) throw error;
        await sleep(backoff, init.signal ?? undefined);
        continue;
      }
      if (last || !isTransientStatus(response.status)) return response;
      const asked = retryAfterMs(response.headers.get("retry-after"), now());
      await response.body?.cancel().catch(() => {});
      await sleep(Math.min(asked ?? backoff, MAX_RETRY_AFTER_MS), init.signal ?? undefined);
    }
  };
}

/** A fetch that failed before any answer: refused, reset, or cut (not aborted by us, not refused by TLS). */
export function isDroppedConnection(error: unknown): boolean {
  return error instanceof TypeError && error.name !== "AbortError" && tlsFailure(error) === undefined;
}

function isRetriedRead(body: unknown): boolean {
  if (typeof body !== "string") return false;
  try {
    const message = JSON.parse(body) as { method?: unknown; id?: unknown };
    return (
      message.id !== undefined && typeof message.method === "string" && RETRIED_METHODS.has(message.method)
    );
  } catch {
    return false;
  }
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
