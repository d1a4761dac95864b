/**
 * Status snapshots are batched per event-loop turn: a search that lists many
 * servers from the metadata cache at once publishes two snapshots (the first
 * change, then the rest of the turn), not one per server, and the last one
 * counts every server's tools. Real stdio fixture servers fill the cache in a
 * first session; the second session lists them from it.
 */
import { mkdir } from "node:fs/promises";
import { createTempDir, recordedPids, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { watchStatus } from "../../src/observability/status-events.js";
import type { McpStatusSnapshot } from "../../src/startup.js";

const SERVERS = 8;

describe("status snapshots", () => {
  it("publish a burst of listings from the cache as two snapshots, the last with every server's tools", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("pids"));
    const mcpServers = Object.fromEntries(
      Array.from({ length: SERVERS }, (_, i) => [
        `s${i}`,
        {
          command: process.execPath,
          args: [stdioFixtureServerPath],
          env: { FIXTURE_PID_DIR: dir.join("pids") },
        },
      ]),
    );
    const source = {
      cwd: dir.path,
      config: { mcpServers },
      metadataCacheFile: dir.join("mcp-cache.json"),
      npxCacheFile: false as const,
    };
    const first = await createRuntime(source);
    const listed = await first.catalog.view();
    await first.shutdown();
    expect(listed.unavailable).toEqual([]);
    const spawned = (await recordedPids(dir.join("pids"))).length;
    expect(spawned).toBe(SERVERS);

    const second = await createRuntime(source);
    const snapshots: McpStatusSnapshot[] = [];
    const stop = watchStatus(second, (s) => snapshots.push(s));
    expect(snapshots).toHaveLength(1);
    const view = await second.catalog.view();
    // The turn's last snapshot is due when the turn ends.
    await new Promise((done) => setImmediate(done));
    stop();
    await second.shutdown();

    expect(snapshots.length - 1).toBeLessThanOrEqual(2);
    expect(snapshots.at(-1)?.totalTools).toBe(view.tools.length);
    expect(snapshots.at(-1)?.servers.every((s) => s.status === "cached" && s.toolCount > 0)).toBe(true);
    expect(await recordedPids(dir.join("pids"))).toHaveLength(spawned);
  }, 20_000);
});
