/**
 * Where the adapter's status snapshots go on `pi.events`: our channel
 * (`MCP_STATUS_EVENT`) and, for listeners written for the reference adapter,
 * its documented `pi-mcp-adapter/status/v1` (with each server's direct tool
 * count). The last snapshot is kept so a change of the direct tools alone
 * can be told again with the new counts.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
  MCP_STATUS_EVENT,
  MCP_STATUS_V1_EVENT,
  type McpStatusSnapshot,
  statusSnapshotV1,
} from "@pi-mcp-adapter/runtime";

export class StatusChannels {
  private last: McpStatusSnapshot | undefined;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly directToolCount: (server: string) => number,
  ) {}

  /** Emits `snapshot` on both channels (the runtime's status sink). */
  publish(snapshot: McpStatusSnapshot): void {
    this.last = snapshot;
    this.pi.events.emit(MCP_STATUS_EVENT, snapshot);
    this.pi.events.emit(MCP_STATUS_V1_EVENT, statusSnapshotV1(snapshot, this.directToolCount));
  }

  /** The direct tools changed: the last snapshot again, with the new counts. */
  directToolsChanged(): void {
    if (this.last) this.publish(this.last);
  }
}
