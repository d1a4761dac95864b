/**
 * The MCP transport between the server-side `AppBridge` and the app in the
 * browser: messages to the app are streamed to the host page (kept until a
 * page is connected), messages from the app arrive as the page's POSTs.
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

export class RelayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly pending: JSONRPCMessage[] = [];
  private sink: ((message: JSONRPCMessage) => void) | undefined;
  private closed = false;

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    if (this.sink) this.sink(message);
    else this.pending.push(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sink = undefined;
    this.onclose?.();
  }

  /** Where messages for the app go now (the latest page's event stream); queued ones are sent first. */
  attach(sink: (message: JSONRPCMessage) => void): void {
    this.sink = sink;
    for (const message of this.pending.splice(0)) sink(message);
  }

  detach(sink: (message: JSONRPCMessage) => void): void {
    if (this.sink === sink) this.sink = undefined;
  }

  /** A message from the app. */
  receive(message: JSONRPCMessage): void {
    if (!this.closed) this.onmessage?.(message);
  }
}
