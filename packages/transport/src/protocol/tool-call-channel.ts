/**
 * `tools/call` sent below SDK v1's client on our own stream transports (a
 * child's stdio, a Unix socket), through the public `Transport` interface:
 * our own string ids, answers taken off the transport before the client sees
 * them. The client's request path costs a tool call per model turn a good
 * share of its own time: its own timer per request, an abort listener, and
 * three zod parses of every answer just to classify it (a result, an error,
 * a request, a notification) before any of our code sees it.
 *
 * It does what the client's `request` does for such a call: the abort
 * sends `notifications/cancelled` and fails the call with the SDK's error, an
 * error answer becomes the SDK's `McpError` (`UrlElicitationRequiredError`
 * included, via `McpError.fromError`), a connection that ends fails what is
 * in flight with `ConnectionClosed` (after the client heard the close), and
 * a send that fails fails the call with its error. Deadlines, progress and
 * output-schema checks are the connection's own and stay where they are.
 * Attach after the client connected: its handlers are chained.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isObject } from "../is-object.js";
import { followSignal } from "../requests/signal-followers.js";
import type { RequestOptions } from "./protocol-client.js";
import type { CallToolParams } from "./protocol-client-table.js";

const ID_PREFIX = "pi-mcp-call-";

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
  unfollow: () => void;
  check: (result: unknown) => unknown;
}

interface Answer {
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class ToolCallChannel {
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private closed = false;

  constructor(private readonly transport: Transport) {
    const previous = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!this.take(message as Answer)) previous?.(message, extra);
    };
    const previousClose = transport.onclose;
    transport.onclose = () => {
      this.closed = true;
      previousClose?.();
      const error = McpError.fromError(ErrorCode.ConnectionClosed, "Connection closed");
      for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
    };
  }

  /**
   * Sends one `tools/call`; resolves with its result as `check` returns it
   * (applied as the answer arrives; what it throws fails the call).
   */
  call(params: CallToolParams, o: RequestOptions, check: (result: unknown) => unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error("Not connected"));
      // Our deadline when there is one (no signal made, no listener added), else the caller's signal.
      const abort = o.abort ?? o.signal;
      if (abort?.aborted) return reject(abort.reason);
      const id = `${ID_PREFIX}${++this.next}`;
      const cancel = (reason: unknown) => this.cancel(id, reason);
      const unfollow = o.abort ? o.abort.onAbort(cancel) : o.signal ? followSignal(o.signal, cancel) : noop;
      this.pending.set(id, { resolve, reject, unfollow, check });
      // Keys in the order the SDK writes them (the frame reader looks for the id last).
      this.transport
        .send({ method: "tools/call", params, jsonrpc: "2.0", id } as never)
        .catch((error: unknown) => this.settle(id)?.reject(error));
    });
  }

  /** The caller gave up: the server is told, and the call fails as the SDK fails it. */
  private cancel(id: string, reason: unknown): void {
    const entry = this.settle(id);
    if (!entry) return;
    this.transport
      .send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: String(reason) },
      })
      .catch(() => {});
    entry.reject(
      reason instanceof McpError ? reason : new McpError(ErrorCode.RequestTimeout, String(reason)),
    );
  }

  /**
   * Consumes an answer to one of our calls (a late one after a cancel too);
   * anything else goes on to the client, which drops what it cannot
   * classify as an answer (as it would have dropped a malformed answer to its own request).
   */
  private take(m: Answer): boolean {
    if (typeof m?.id !== "string" || !m.id.startsWith(ID_PREFIX) || !isAnswer(m)) return false;
    const entry = this.settle(m.id);
    if (!entry) return true;
    if (m.error) entry.reject(McpError.fromError(m.error.code, m.error.message, m.error.data));
    else {
      try {
        entry.resolve(entry.check(m.result));
      } catch (error) {
        entry.reject(error);
      }
    }
    return true;
  }

  private settle(id: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    entry.unfollow();
    return entry;
  }
}

function noop(): void {}

/** What the SDK classifies as an answer: exactly `jsonrpc`, `id` and an object `result` or a well-formed `error`. */
function isAnswer(m: Answer): boolean {
  let keys = 0;
  for (const key in m) {
    keys++;
    if (key !== "jsonrpc" && key !== "id" && key !== "result" && key !== "error") return false;
  }
  if (keys !== 3 || (m as { jsonrpc?: unknown }).jsonrpc !== "2.0") return false;
  if ("result" in m) return isObject(m.result) && (m.result._meta === undefined || isObject(m.result._meta));
  return isObject(m.error) && Number.isInteger(m.error.code) && typeof m.error.message === "string";
}
