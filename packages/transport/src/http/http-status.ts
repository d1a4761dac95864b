/**
 * What an HTTP failure was, as either SDK reports it: the status behind an
 * error, and the few verdicts drawn from it (auth needed, not Streamable
 * HTTP at all, worth another try), and the TLS reason behind a failed fetch.
 * Imports nothing: the read retry sits on every connection's path and must
 * not load the SDK (and its zod) when the extension starts.
 */
/** HTTP statuses that prove the endpoint is not Streamable HTTP (so legacy SSE may be). */
const DEFINITIVE_REJECTIONS = new Set([404, 405, 406, 415]);

/**
 * The HTTP status behind an SDK v1 or v2 transport error, if there is one
 * (v1's `StreamableHTTPError` carries it as `code`). Read by shape, not by
 * class: importing the SDK's transport module would load all of its schemas
 * with this package.
 */
export function httpStatus(error: unknown): number | undefined {
  const e = error as { status?: unknown; code?: unknown } | undefined;
  if (typeof e?.status === "number") return e.status;
  // JSON-RPC codes are negative; only a number in the HTTP range is a status.
  return typeof e?.code === "number" && e.code >= 100 && e.code < 600 ? e.code : undefined;
}

export function isDefinitiveRejection(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && DEFINITIVE_REJECTIONS.has(status);
}

export function isAuthFailure(error: unknown): boolean {
  const status = httpStatus(error);
  return status === 401 || status === 403 || (error as Error | undefined)?.name === "UnauthorizedError";
}

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
