/**
 * Legacy SSE binds a session to its one event stream: once the stream breaks
 * after the connect, the session is gone (a restarted server no longer knows
 * it, a stopped one answers nothing), and answers to requests in flight can
 * never arrive. The SDK's EventSource would quietly reconnect to a new,
 * uninitialized session while those requests wait out their timeout, and the
 * server would still show as connected. So the transport closes at the
 * stream's first error: requests in flight fail at once, the connection
 * counts as lost, and the next use connects afresh (or is told why not).
 */
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";

/** An SSE transport that closes itself when its event stream breaks after `start`. */
export function sseClosingOnStreamLoss(
  ...args: ConstructorParameters<typeof SSEClientTransport>
): SSEClientTransport {
  const transport = new SSEClientTransport(...args);
  let started = false;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    started = true;
  };
  // Set before the client connects: the client's own handler runs after this one (it chains).
  transport.onerror = (error) => {
    if (started && error instanceof SseError) {
      started = false;
      void transport.close().catch(() => {});
    }
  };
  return transport;
}
