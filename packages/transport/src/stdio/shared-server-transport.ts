/**
 * A shared server's channel (from the daemon package) as the connection sees
 * it: an SDK `Transport` with the server's pid and the sessions sharing it,
 * and whether it ended because the daemon itself went away (killed, crashed,
 * stopped) rather than the server: such a loss is no fault of the server, and
 * the next use reconnects at once through a new daemon instead of waiting out
 * a failure backoff.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SharedServerChannel } from "@pi-mcp-adapter/daemon";
import type { SharedSource, SharedState } from "./shared-state.js";

export class SharedServerTransport implements Transport, SharedSource {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  constructor(private readonly channel: SharedServerChannel) {
    channel.onmessage = (message) => this.onmessage?.(message);
    channel.onerror = (error) => this.onerror?.(error);
    channel.onclose = () => this.onclose?.();
  }

  /** Set before `onclose` when the channel ended because its daemon went away. */
  get daemonLost(): boolean {
    return this.channel.ended?.by === "daemon-lost";
  }

  /** The shared server process (run by the daemon). */
  get pid(): number | undefined {
    return this.channel.attachment?.pid;
  }

  shared(): SharedState {
    return { sessions: this.channel.sessions() };
  }

  start(): Promise<void> {
    return this.channel.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.channel.send(message, options);
  }

  setProtocolVersion(version: string): void {
    this.channel.setProtocolVersion?.(version);
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}
