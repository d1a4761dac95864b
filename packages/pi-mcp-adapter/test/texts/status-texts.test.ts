/**
 * The texts the shell and the CLI share, over what a real runtime gives: the
 * stats table over the rows of real calls, and the token-cost line over the
 * costs of a real listing read back from the metadata cache.
 */
import { createRuntime } from "@pi-mcp-adapter/runtime";
import { loadStartupSnapshot, snapshotTokenCosts } from "@pi-mcp-adapter/runtime/startup";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { formatStats } from "../../src/texts/stats-table.js";
import { formatTaskStatus } from "../../src/texts/task-line.js";
import { formatTokenCosts } from "../../src/texts/token-cost-line.js";

const fixture = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [stdioFixtureServerPath],
  ...extra,
});

describe("status texts", () => {
  it("the stats table has a row per server/tool with calls, errors, timeouts and latency", async () => {
    await using dir = await createTempDir();
    const config = { settings: { captureStats: true }, mcpServers: { s: fixture() } };
    const runtime = await createRuntime({
      cwd: dir.path,
      config,
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    try {
      for (const text of ["a", "bb", "ccc"]) await runtime.call("s_echo", { text });
      const table = formatStats(runtime.stats?.summary() ?? []);
      expect(table).toMatch(/^MCP call stats \(this session\)\nserver\/tool\s+calls\s+errors/);
      expect(table).toMatch(/s\/echo\s+3\s+0\s+0\s+[\d.]+ ms\s+[\d.]+ ms/);
      expect(formatStats([], "stats.json")).toBe("MCP call stats (stats.json)\nNo MCP calls yet.");
    } finally {
      await runtime.shutdown();
    }
  }, 30_000);

  it("the token-cost line gives the total, then each server now and with all its tools direct", async () => {
    await using dir = await createTempDir();
    const config = { mcpServers: { weather: fixture({ description: "Forecasts" }), docs: fixture() } };
    const metadataCacheFile = dir.join("mcp-cache.json");
    const runtime = await createRuntime({ cwd: dir.path, config, metadataCacheFile, npxCacheFile: false });
    try {
      expect((await runtime.catalog.view()).unavailable).toEqual([]);
    } finally {
      await runtime.shutdown();
    }
    const costs = snapshotTokenCosts(await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile }));
    expect(costs.map((c) => c.server)).toEqual(["weather", "docs"]);
    expect(formatTokenCosts(costs)).toBe(
      `Tokens in every request: ~${costs[0]!.perRequest + costs[1]!.perRequest}: ` +
        `weather ~${costs[0]!.perRequest} (all direct ~${costs[0]!.allDirect}), ` +
        `docs ~${costs[1]!.perRequest} (all direct ~${costs[1]!.allDirect})`,
    );
  }, 30_000);

  it("a running task names its status unless it is working, without the server's control characters", () => {
    const task = { tool: "brew", status: "working", message: "brewing \u001b[31mcoffee" };
    expect(formatTaskStatus("remote", task)).toBe("remote · brew: brewing coffee");
    expect(formatTaskStatus("remote", { tool: "brew", status: "input_required" })).toBe(
      "remote · brew: input required",
    );
    expect(formatTaskStatus("remote", { tool: "brew", status: "working" })).toBe("remote · brew: working");
  });
});
