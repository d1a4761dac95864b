/**
 * HTTP failures worth another try, and the TLS reason behind a failed fetch.
 * Imports nothing: the read retry sits on every connection's path and must
 * not load the SDK (and its zod) when the extension starts.
 */

/** Statuses a server answers when it may well answer the same request a moment later. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** The TLS reason behind a failed fetch (e.g. `self-signed certificate in certificate chain`), if TLS is what failed. */
export function tlsFailure(error: unknown): string | undefined {
  type Link = { cause?: unknown; code?: unknown; message?: unknown } | undefined;
  for (let e = error as Link, depth = 0; e && depth < 5; e = e.cause as Link, depth++) {
    if (typeof e.code === "string" && /CERT|TLS|SSL|UNABLE_TO/.test(e.code)) return String(e.message);
  }
  return undefined;
}
