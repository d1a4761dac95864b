/**
 * A shared server's channel (from the daemon package) as the connection sees
 * it: an SDK `Transport` with the server's pid and the sessions sharing it.
 * When the channel ends without our asking, it first learns whether the
 * daemon itself went away (killed, crashed, stopped) rather than the server:
 * such a loss is no fault of the server, and the next use reconnects at once
 * through a new daemon instead of waiting out a failure backoff.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SharedServerChannel } from "@pi-mcp-adapter/daemon";
import type { SharedSource, SharedState } from "./shared-state.js";

/** Whether the daemon the channel was attached to still runs; `false` when it is gone (or replaced). */
export type DaemonProbe = (daemonPid: number) => Promise<boolean>;

/** How long the probe may take before the loss is taken as the server's (a hung daemon is no better). */
const PROBE_TIMEOUT_MS = 2_000;

export class SharedServerTransport implements Transport, SharedSource {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set before `onclose` when the channel ended because its daemon went away. */
  daemonLost = false;
  private closing = false;

  constructor(
    private readonly channel: SharedServerChannel,
    private readonly daemonRuns: DaemonProbe,
  ) {
    channel.onmessage = (message) => this.onmessage?.(message);
    channel.onerror = (error) => this.onerror?.(error);
    channel.onclose = () => void this.ended();
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
    this.closing = true;
    return this.channel.close();
  }

  private async ended(): Promise<void> {
    const daemonPid = this.channel.attachment?.daemonPid;
    if (!this.closing && daemonPid !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), PROBE_TIMEOUT_MS);
      });
      const runs = await Promise.race([this.daemonRuns(daemonPid).catch(() => false), timeout]);
      clearTimeout(timer);
      this.daemonLost = !runs;
    }
    this.onclose?.();
  }
}
