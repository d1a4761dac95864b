/**
 * Headers whose values come from `!command` secrets (`bearerToken`,
 * `headers`), computed for every HTTP request instead of once per connect:
 * `wrapFetch` sets each header from its `RefreshingSecret` before the request
 * goes out, and when the server answers 401 it re-runs the commands at once
 * and, if any printed a new value, sends that request once more.
 */
import type { RefreshingSecret } from "./refreshing-secret.js";

/** The fetch shape of the MCP SDK's transports (`FetchLike`). */
export type SecretFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface SecretHeader {
  /** Header name, e.g. `Authorization`. */
  name: string;
  secret: RefreshingSecret;
  /** Turns the command's output into the header value (`Bearer <token>` for `bearerToken`). */
  format?: (value: string) => string;
}

export class SecretHeaders {
  constructor(readonly headers: readonly SecretHeader[]) {}

  /** Re-runs every command now; true when any printed a new value. */
  async renew(): Promise<boolean> {
    const changed = await Promise.all(this.headers.map((header) => header.secret.renew()));
    return changed.some(Boolean);
  }

  /**
   * `fetch` (default: the global one) with these headers set on every request
   * — with `origin`, only on requests to it (an OAuth server elsewhere never gets them).
   */
  wrapFetch(fetch?: SecretFetch, origin?: string): SecretFetch {
    const send: SecretFetch = fetch ?? ((url, init) => globalThis.fetch(url, init));
    return async (url, init) => {
      if (origin !== undefined && new URL(String(url)).origin !== origin) return send(url, init);
      const response = await send(url, await this.apply(init));
      if (response.status !== 401 || !replayable(init?.body) || !(await this.renew())) return response;
      await response.body?.cancel().catch(() => {});
      return send(url, await this.apply(init));
    };
  }

  private async apply(init: RequestInit | undefined): Promise<RequestInit> {
    const headers = new Headers(init?.headers);
    for (const header of this.headers) {
      const value = await header.secret.current();
      headers.set(header.name, header.format ? header.format(value) : value);
    }
    return { ...init, headers };
  }
}

/** A body that can be sent twice (the SDK sends JSON text; a stream cannot be replayed). */
function replayable(body: RequestInit["body"]): boolean {
  return body === undefined || body === null || typeof body === "string" || body instanceof URLSearchParams;
}
