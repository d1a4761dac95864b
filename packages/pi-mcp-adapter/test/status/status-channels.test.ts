import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { createRuntime, headlessHost } from "@pi-mcp-adapter/runtime";
import { type McpStatusSnapshot, statusSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { StatusChannels } from "../../src/pi/status/status-channels.js";
import { emptyStatusSnapshot, MCP_STATUS_EVENT, MCP_STATUS_V1_EVENT } from "../../src/pi/status/status-v1.js";

/** Only `pi.events` is used: a recording bus stands in for Pi's (the real one runs in apps/e2e). */
function recordingPi() {
  const emitted: [string, unknown][] = [];
  const pi = { events: { emit: (channel: string, data: unknown) => emitted.push([channel, data]) } };
  return { pi: pi as unknown as ExtensionAPI, emitted };
}

describe("status channels", () => {
  it("emits each snapshot on ours and on status/v1, and tells v1 again only when a direct tool count moved", () => {
    const { pi, emitted } = recordingPi();
    let direct = 0;
    const channels = new StatusChannels(pi, () => direct);
    channels.publish(statusSnapshot([{ name: "docs", state: "connecting", toolCount: 4, source: "x" }]));
    expect(emitted.map(([channel]) => channel)).toEqual([MCP_STATUS_EVENT, MCP_STATUS_V1_EVENT]);
    expect(emitted[1]?.[1]).toEqual({
      version: 1,
      servers: [{ name: "docs", status: "not-connected", toolCount: 4, directToolCount: 0, disabled: false }],
      totalTools: 4,
      totalResources: 0,
      connectedCount: 0,
      disabledCount: 0,
    });
    channels.directToolsChanged();
    expect(emitted).toHaveLength(2);
    direct = 2;
    channels.directToolsChanged();
    expect(emitted.map(([channel]) => channel)).toEqual([
      MCP_STATUS_EVENT,
      MCP_STATUS_V1_EVENT,
      MCP_STATUS_V1_EVENT,
    ]);
    expect(emitted[2]?.[1]).toMatchObject({ servers: [{ directToolCount: 2 }] });
  });

  it("the empty snapshot is the one a runtime's status ends with at shutdown", async () => {
    await using dir = await createTempDir();
    const snapshots: McpStatusSnapshot[] = [];
    const host = headlessHost({ status: (snapshot) => void snapshots.push(snapshot) });
    const config = { mcpServers: { off: { command: "never-run", disabled: true } } };
    const runtime = await createRuntime({
      cwd: dir.path,
      config,
      host,
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    await runtime.shutdown();
    expect(snapshots.at(0)?.disabledCount).toBe(1);
    expect(snapshots.at(-1)).toEqual(emptyStatusSnapshot());
  });
});
