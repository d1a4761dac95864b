/**
 * How a failed request becomes a `TransportError` that names the server and
 * the request: which of our deadlines ended it (idle or total), the caller's
 * cancellation, a shared server's daemon gone before the request was sent,
 * a timeout or closed connection as either SDK reports it, or
 * anything else the server or SDK threw.
 */
import { describeError } from "@pi-mcp-adapter/core";
import { TransportError } from "../errors.js";
import { httpStatus, isTransientStatus } from "../http/http-status.js";
import { isDroppedConnection } from "../http/read-retry.js";
import { STDERR_SUMMARY_WINDOW, stderrHint } from "../stdio/stderr-summary.js";
import type { RequestDeadline } from "./request-deadline.js";

export interface FailedRequest {
  server: string;
  /** The request, e.g. `tools/call search`. */
  what: string;
  error: unknown;
  deadline?: RequestDeadline;
  /** The caller's own signal. */
  signal?: AbortSignal;
  /** How the SDK's error maps onto ours. */
  kind: "timeout" | "closed" | undefined;
  /** Whether the connection has ended. */
  closed: boolean;
  /** The server's last stderr lines, for a connection that closed. */
  stderrTail: (lines: number) => string[];
}

export function requestFailure(failed: FailedRequest): TransportError {
  const { server, what, error, deadline } = failed;
  const cause = { cause: error };
  if (error instanceof TransportError) return error;
  if (deadline?.expired === "total") {
    const message = `${server}: ${what} timed out: it ran for its total limit of ${deadline.limits.totalMs} ms (maxTotalTimeoutMs), progress notwithstanding`;
    return new TransportError("request_timeout", server, message, cause);
  }
  if (deadline?.expired === "idle") {
    const message = `${server}: ${what} timed out after ${deadline.limits.idleMs} ms without an answer or progress`;
    return new TransportError("request_timeout", server, message, cause);
  }
  if (failed.signal?.aborted) {
    return new TransportError("request_cancelled", server, `${server}: ${what} was cancelled`, cause);
  }
  if ((error as { code?: unknown } | undefined)?.code === "daemon_lost") {
    const message = `${server}: ${what} was not sent, because the shared-server daemon went away first`;
    return new TransportError("closed", server, message, { ...cause, notSent: true });
  }
  if (failed.kind === "timeout") {
    return new TransportError("request_timeout", server, `${server}: ${what} timed out`, cause);
  }
  if (failed.closed || failed.kind === "closed") {
    const message = `${server}: connection closed during ${what}${notRetried(what)}${stderrHint(failed.stderrTail(STDERR_SUMMARY_WINDOW))}`;
    return new TransportError("closed", server, message, cause);
  }
  const status = httpStatus(error);
  const transient = isDroppedConnection(error) || (status !== undefined && isTransientStatus(status));
  const message = `${server}: ${what} failed: ${describeError(error)}${transient ? notRetried(what) : ""}`;
  return new TransportError("request_failed", server, message, cause);
}

/** What a tool call that broke off in transit must say: it is never sent twice, and its fate is unknown. */
function notRetried(what: string): string {
  return what.startsWith("tools/call ")
    ? " — the call was not retried, because it may or may not have run on the server"
    : "";
}
