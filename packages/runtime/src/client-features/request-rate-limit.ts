/**
 * A per-server bound on the requests that reach the user: elicitation forms
 * and sampling approvals. The transport already refuses them outside a call
 * and beyond ten per call; this keeps one server from raising a stream of
 * dialogs within its calls. Each server has a token bucket (default: a burst
 * of 5, then one more every 12 s, i.e. 5 a minute). A request over the limit
 * is refused with a JSON-RPC error naming the limit, without a dialog, and
 * the user gets one notice naming the server (again only after the server was
 * back under its limit).
 */
import type { ClientHandlers, HandlerContext } from "@pi-mcp-adapter/transport";

/** JSON-RPC "Invalid Request", as the transport answers a request it refuses. */
const INVALID_REQUEST = -32600;

export interface RequestRateLimitOptions {
  /** Requests a server may make at once (the bucket's size). Default 5. */
  burst?: number;
  /** Requests per minute it regains. Default 5. */
  perMinute?: number;
  /** The clock (ms). Default `Date.now`. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
  /** The user was told this server is over its limit (until it is under it again). */
  told: boolean;
}

export class RequestRateLimit {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private readonly perMs: number;
  private readonly now: () => number;

  constructor(
    /** Tells the user, once per stretch over the limit, which server was refused. */
    private readonly notify: (message: string) => void,
    options: RequestRateLimitOptions = {},
  ) {
    this.burst = options.burst ?? 5;
    this.perMs = (options.perMinute ?? 5) / 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Takes one request of `server` from its bucket; throws the refusal for the server when it is empty. */
  admit(server: string): void {
    const now = this.now();
    const bucket = this.buckets.get(server) ?? { tokens: this.burst, at: now, told: false };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(server, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      bucket.told = false;
      return;
    }
    const limit = `${this.burst} at once, then ${Math.round(this.perMs * 60_000)} a minute`;
    if (!bucket.told) {
      bucket.told = true;
      this.notify(
        `MCP server "${server}" asked for too many forms or sampling approvals; further requests are refused for now (limit: ${limit}).`,
      );
    }
    // The transport prefixes the method: "client handler for elicitation/create failed: too many …".
    throw Object.assign(
      new Error(
        `too many elicitation and sampling requests from this server (limit: ${limit}); try again later`,
      ),
      { code: INVALID_REQUEST },
    );
  }

  /** The handlers with elicitation and sampling counted against the limit (roots are not). */
  wrap(handlers: ClientHandlers): ClientHandlers {
    const { elicitation, sampling } = handlers;
    const limited =
      <P, R>(handle: (params: P, context: HandlerContext) => Promise<R>) =>
      (params: P, context: HandlerContext): Promise<R> => {
        this.admit(context.server);
        return handle(params, context);
      };
    return {
      ...handlers,
      ...(elicitation ? { elicitation: limited(elicitation) } : {}),
      ...(sampling ? { sampling: limited(sampling) } : {}),
    };
  }
}
