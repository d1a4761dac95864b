/**
 * `subscriptions/listen` streams opened below the SDK client on a 2026-07-28
 * connection, for filters the SDK's own `listen` cannot frame: the Tasks
 * extension's `taskIds`, which needs the extension named in the request's
 * per-request capabilities (the caller frames `_meta`, as for raw requests).
 * The server's acknowledgement and the stream's final response are taken off
 * the transport here; the notifications in between go on to the SDK and the
 * notification relay like any other (server-notification.ts).
 * Attach after the client connected (it chains the SDK's handler).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { tapTransport } from "./transport-tap.js";

const ID_PREFIX = "pi-mcp-listen-";
const SUBSCRIPTION_ID_META = "io.modelcontextprotocol/subscriptionId";

/** How a listen stream ended: closed here, ended by the server's response, or dropped. */
export type ListenEnd = "local" | "graceful" | "remote";

export interface RawSubscription {
  /** The filter the server agreed to honor (from `notifications/subscriptions/acknowledged`). */
  honored: Record<string, unknown>;
  /** Resolves once the stream ended; never rejects. */
  closed: Promise<ListenEnd>;
  /** Ends the stream (aborts it and sends `notifications/cancelled`); idempotent. */
  close(): Promise<void>;
}

/** Opens a stream with `params` (`notifications` and a framed `_meta`); rejects when refused or unacknowledged within `timeout`. */
export type RawListen = (params: Record<string, unknown>, o: { timeout: number }) => Promise<RawSubscription>;

interface OpenStream {
  acknowledged(filter: Record<string, unknown>): void;
  ended(how: ListenEnd, error?: Error): void;
}

type SendOptions = { requestSignal?: AbortSignal; onRequestStreamEnd?: () => void };

export class RawListenChannel {
  private readonly open = new Map<string, OpenStream>();
  private next = 0;

  constructor(private readonly transport: Transport) {
    tapTransport(
      transport,
      (message) => this.take(message),
      () => {
        for (const stream of [...this.open.values()]) stream.ended("remote", new Error("connection closed"));
      },
    );
  }

  readonly listen: RawListen = (params, o) => {
    const id = `${ID_PREFIX}${++this.next}`;
    const stop = new AbortController();
    const send = this.transport.send.bind(this.transport) as (m: unknown, o?: SendOptions) => Promise<void>;
    const cancel = () =>
      send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }).catch(() => {});
    let endedWith: (how: ListenEnd) => void = () => {};
    const closed = new Promise<ListenEnd>((resolve) => {
      endedWith = resolve;
    });
    return new Promise<RawSubscription>((resolve, reject) => {
      const timer = setTimeout(() => {
        stream.ended("remote", new Error(`subscriptions/listen: no acknowledgement within ${o.timeout} ms`));
        void cancel();
      }, o.timeout);
      const stream: OpenStream = {
        acknowledged: (honored) => {
          clearTimeout(timer);
          resolve({
            honored,
            closed,
            close: async () => {
              if (!this.open.has(id)) return;
              stream.ended("local");
              await cancel();
            },
          });
        },
        ended: (how, error) => {
          if (!this.open.delete(id)) return;
          clearTimeout(timer);
          stop.abort();
          endedWith(how);
          reject(error ?? new Error("subscriptions/listen ended before the server acknowledged it"));
        },
      };
      this.open.set(id, stream);
      const onEnd = () => stream.ended("remote");
      send(
        { jsonrpc: "2.0", id, method: "subscriptions/listen", params },
        { requestSignal: stop.signal, onRequestStreamEnd: onEnd },
      ).catch((error: unknown) =>
        stream.ended("remote", error instanceof Error ? error : new Error(String(error))),
      );
    });
  };

  /** Consumes the acknowledgement and the final response of our streams; anything else goes on. */
  private take(message: unknown): boolean {
    const m = message as {
      id?: unknown;
      method?: unknown;
      params?: { _meta?: Record<string, unknown>; notifications?: unknown };
      error?: { message?: unknown };
    };
    if (m?.method === "notifications/subscriptions/acknowledged") {
      const stream = this.open.get(String(m.params?._meta?.[SUBSCRIPTION_ID_META]));
      const filter = m.params?.notifications;
      stream?.acknowledged(
        typeof filter === "object" && filter !== null ? (filter as Record<string, unknown>) : {},
      );
      return stream !== undefined;
    }
    if (typeof m?.id !== "string" || !m.id.startsWith(ID_PREFIX) || "method" in m) return false;
    const refused = m.error
      ? new Error(`subscriptions/listen refused: ${String(m.error.message)}`)
      : undefined;
    this.open.get(m.id)?.ended(refused ? "remote" : "graceful", refused);
    return true;
  }
}
