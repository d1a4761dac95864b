/**
 * How a connection sends its requests: each under its own deadline (the SDK's
 * timer is set out of reach; ours aborts the request and can pause —
 * request-deadline.ts), inside the call window for calls (call-window.ts),
 * with progress restarting the idle limit, pagination that stops on a repeated
 * cursor, a count of requests in flight, and failures that name the server.
 */
import { TransportError } from "../errors.js";
import type { CallWindow } from "../inbound/call-window.js";
import type { NotificationRelay } from "../inbound/server-notification.js";
import type { ProtocolClient, RequestOptions } from "../protocol/protocol-client.js";
import type { CallOptions } from "../remote-types.js";
import {
  deadlineOptions,
  type RequestDeadline,
  type RequestDeadlines,
} from "../requests/request-deadline.js";
import { requestFailure } from "../requests/request-failure.js";
import type { StderrBuffer } from "../stdio/stderr-buffer.js";

/** What the requests of one connection are sent with. */
export interface RequestParts {
  name: string;
  client: ProtocolClient;
  stderr: StderrBuffer;
  /** `requestTimeoutMs`: the idle limit of a request without its own `timeoutMs`. */
  defaultTimeoutMs: number;
  /** `maxTotalTimeoutMs`: the total limit of a request without its own. */
  maxTotalTimeoutMs: number;
  /** The deadlines of this connection's requests (shared with its guarded handlers, which pause them). */
  deadlines: RequestDeadlines;
  /** The calls in flight, which server requests are admitted during (shared with the guarded handlers). */
  window: CallWindow;
  now?: () => number;
  /** Server notifications read off the transport. */
  notifications: NotificationRelay;
}

/** What kind of request: a `call` opens the call window; a `progressToken` is heard; `untimed` has no deadline. */
export interface RequestKind {
  call?: boolean;
  progressToken?: string;
  untimed?: boolean;
}

/** The connection's side: whether it is closed, and closing it when a request could not be sent. */
export interface RequestHost {
  isClosed(): boolean;
  markClosed(): void;
}

export class RequestRunner {
  /** Requests in flight. */
  active = 0;
  lastActivityAt: number;
  private readonly now: () => number;

  constructor(
    private readonly parts: RequestParts,
    private readonly host: RequestHost,
  ) {
    this.now = parts.now ?? Date.now;
    this.lastActivityAt = this.now();
  }

  /**
   * Sends one request under its deadline. The SDK's own timer is set out of
   * reach and ours aborts the request instead (the SDK, or our own tool-call
   * path, then sends `notifications/cancelled`): only ours can pause.
   * A `call` opens the window server requests are admitted in; with a
   * `progressToken`, the server's progress restarts the idle limit.
   */
  async send<T>(
    what: string,
    run: (o: RequestOptions) => Promise<T>,
    options: CallOptions,
    kind: RequestKind = {},
  ): Promise<T> {
    const name = this.parts.name;
    if (this.host.isClosed()) {
      throw new TransportError("closed", name, `${name}: connection is closed (${what})`, { notSent: true });
    }
    // An untimed request (a task's own clock ends it) has no deadline; a deadline follows options.signal.
    const deadline = kind.untimed
      ? undefined
      : this.parts.deadlines.start(
          {
            idleMs: options.timeoutMs ?? this.parts.defaultTimeoutMs,
            totalMs: options.maxTotalTimeoutMs ?? this.parts.maxTotalTimeoutMs,
          },
          options.signal,
        );
    const leave = kind.call ? this.parts.window.enter() : undefined;
    const unsubscribe = kind.progressToken
      ? this.onProgress(kind.progressToken, deadline, options)
      : undefined;
    this.active++;
    this.lastActivityAt = this.now();
    try {
      return await run(deadlineOptions(deadline, options.signal));
    } catch (error) {
      const failure = this.failure(what, error, deadline, options.signal);
      // A transport that could not send is dead: the next use must get a new connection.
      if (failure.notSent) this.host.markClosed();
      throw failure;
    } finally {
      deadline?.end();
      unsubscribe?.();
      leave?.();
      this.active--;
      this.lastActivityAt = this.now();
    }
  }

  /** Every page of a list, each page one request; stops when a server repeats a cursor. */
  async pages<T>(
    what: string,
    options: CallOptions,
    fetchPage: (
      cursor: string | undefined,
      o: RequestOptions,
    ) => Promise<{ items: T[]; nextCursor?: string }>,
  ): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.send(what, (o) => fetchPage(cursor, o), options);
      items.push(...page.items);
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (seen.has(cursor)) break; // a server repeating a cursor would loop forever
        seen.add(cursor);
      }
    } while (cursor !== undefined);
    return items;
  }

  /** A failed request as a `TransportError` naming the server and the request (request-failure.ts). */
  failure(what: string, error: unknown, deadline?: RequestDeadline, signal?: AbortSignal) {
    return requestFailure({
      server: this.parts.name,
      what,
      error,
      deadline,
      signal,
      kind: this.parts.client.classify(error),
      closed: this.host.isClosed(),
      stderrTail: (lines) => this.parts.stderr.tail(lines),
    });
  }

  /** Progress under `token`: restarts the deadline's idle limit (if it has one) and reaches `onProgress`. */
  private onProgress(token: string, deadline: RequestDeadline | undefined, options: CallOptions): () => void {
    return this.parts.notifications.on((n) => {
      if (n.kind !== "progress" || n.progressToken !== token) return;
      deadline?.progress();
      const { kind: _kind, progressToken: _token, ...update } = n;
      options.onProgress?.(update);
    });
  }
}
