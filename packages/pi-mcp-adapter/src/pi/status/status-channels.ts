/**
 * Where the adapter's status snapshots go on `pi.events`: our channel
 * (`MCP_STATUS_EVENT`) and, for listeners written for the reference adapter,
 * its documented `pi-mcp-adapter/status/v1` (with each server's direct tool
 * count). The last snapshot is kept so that a change of the direct tools
 * alone is told again on the v1 channel with the new counts.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { McpStatusSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { MCP_STATUS_EVENT, MCP_STATUS_V1_EVENT, statusSnapshotV1 } from "./status-v1.js";

export class StatusChannels {
  private last: McpStatusSnapshot | undefined;
  /** The last v1 snapshot emitted, as JSON (to tell only real count changes again). */
  private lastV1 = "";

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly directToolCount: (server: string) => number,
  ) {}

  /** Emits `snapshot` on both channels (the runtime's status sink). */
  publish(snapshot: McpStatusSnapshot): void {
    this.last = snapshot;
    this.pi.events.emit(MCP_STATUS_EVENT, snapshot);
    this.publishV1(snapshot);
  }

  /** The direct tools changed: v1 listeners hear the last snapshot again if a count moved. */
  directToolsChanged(): void {
    if (!this.last) return;
    const v1 = statusSnapshotV1(this.last, this.directToolCount);
    if (JSON.stringify(v1) !== this.lastV1) this.publishV1(this.last);
  }

  private publishV1(snapshot: McpStatusSnapshot): void {
    const v1 = statusSnapshotV1(snapshot, this.directToolCount);
    this.lastV1 = JSON.stringify(v1);
    this.pi.events.emit(MCP_STATUS_V1_EVENT, v1);
  }
}
