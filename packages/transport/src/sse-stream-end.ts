/**
 * Legacy SSE (HTTP+SSE, 2024-11-05): a session lives exactly as long as its
 * GET event stream. When the stream ends (the server or a gateway in front
 * of it restarted, or a proxy cut an idle stream), the server has dropped
 * the session with it; the SDK's EventSource would quietly open a new stream
 * whose session was never initialized. This hears that end, so the
 * connection can open a proper session instead (session-renewal.ts).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * Calls `ended` once, the first time the SSE transport reports its event
 * stream failed or closed. Install it after the client connected: errors of
 * the first connect are the connect's own. POST failures, reported through
 * the same `onerror`, are not an ended stream.
 */
export function onSseStreamEnd(transport: Transport, ended: () => void): void {
  const previous = transport.onerror;
  let heard = false;
  transport.onerror = (error) => {
    previous?.(error);
    if (heard || !isStreamError(error)) return;
    heard = true;
    ended();
  };
}

/**
 * The SDK's `SseError`, read by shape (it is what the EventSource's `onerror`
 * becomes: "SSE error: …", with the event attached).
 */
function isStreamError(error: unknown): boolean {
  const e = error as { message?: unknown; event?: unknown } | undefined;
  return typeof e?.message === "string" && e.message.startsWith("SSE error:") && e.event !== undefined;
}
