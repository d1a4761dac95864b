/**
 * Takes messages off a connected transport before the SDK client sees them:
 * `take` keeps a message (returns true) or lets it on to the SDK's own
 * handler; `closed` runs before the SDK hears that the transport closed.
 * Used by the channels that talk below the SDK (raw-request.ts, raw-listen.ts).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

export function tapTransport(
  transport: Transport,
  take: (message: unknown) => boolean,
  closed: () => void,
): void {
  const previous = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (!take(message)) previous?.(message, extra);
  };
  const previousClose = transport.onclose;
  transport.onclose = () => {
    closed();
    previousClose?.();
  };
}
