import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { clientHandlersFor } from "../../src/client-features/client-handlers.js";
import { createRuntime, headlessHost } from "../../src/index.js";
import type { McpStatusSnapshot } from "../../src/startup.js";

describe("Host", () => {
  it("the status sink gets a snapshot at start, after each change, and an empty one at shutdown", async () => {
    const snapshots: McpStatusSnapshot[] = [];
    const runtime = await createRuntime({
      cwd: process.cwd(),
      config: {
        mcpServers: {
          demo: { command: process.execPath, args: [stdioFixtureServerPath], lifecycle: "eager" },
        },
      },
      metadataCacheFile: false,
      npxCacheFile: false,
      host: headlessHost({ status: (snapshot) => snapshots.push(snapshot) }),
    });
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]?.servers.map((s) => [s.name, s.status])).toEqual([["demo", "not-connected"]]);
    await runtime.start();
    expect(snapshots.map((s) => s.servers[0]?.status)).toEqual(["not-connected", "connecting", "connected"]);
    await runtime.shutdown();
    expect(snapshots.at(-1)).toEqual({
      totalTools: 0,
      totalResources: 0,
      connectedCount: 0,
      disabledCount: 0,
      servers: [],
    });
    // Nothing after the empty snapshot: the runtime stopped watching before closing connections.
    expect(snapshots.filter((s) => s.servers.length === 0)).toHaveLength(1);
  });

  it("a throwing status sink does not break the runtime", async () => {
    const runtime = await createRuntime({
      cwd: process.cwd(),
      config: { mcpServers: { demo: { command: process.execPath, args: [stdioFixtureServerPath] } } },
      metadataCacheFile: false,
      npxCacheFile: false,
      host: headlessHost({
        status: () => {
          throw new Error("sink bug");
        },
      }),
    });
    const result = await runtime.call("demo_add", { a: 1, b: 2 });
    expect(result.isError).toBe(false);
    await runtime.shutdown();
  });

  it("clientHandlersFor offers nothing to a headless host (no interactive capability is declared)", () => {
    expect(clientHandlersFor(headlessHost())).toEqual({});
  });
});
