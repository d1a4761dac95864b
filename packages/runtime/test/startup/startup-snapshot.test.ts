import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createTempDir, recordedPids, stdioFixtureServerPath, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import { loadStartupSnapshot } from "../../src/startup.js";

describe("startup snapshot", () => {
  it("serves cached listings of unchanged servers without starting any server or running a secret command", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("pids"));
    const marker = dir.join("secret-ran");
    const fixture = (extra: Record<string, unknown> = {}) => ({
      command: process.execPath,
      args: [stdioFixtureServerPath],
      env: { FIXTURE_PID_DIR: dir.join("pids"), TOKEN: `!touch ${marker} && echo t` },
      ...extra,
    });
    const cacheFile = dir.join("mcp-cache.json");
    const warm = { mcpServers: { weather: fixture(), docs: fixture({ toolPrefix: "none" }) } };

    // A first session lists both servers for real, which fills the cache.
    const first = await createRuntime({
      cwd: dir.path,
      config: warm,
      metadataCacheFile: cacheFile,
      npxCacheFile: false,
    });
    expect((await first.catalog.view()).unavailable).toEqual([]);
    await first.shutdown();
    const started = await recordedPids(dir.join("pids"));
    expect(started).toHaveLength(2);
    expect(await waitForExit(started, 5000)).toEqual([]);
    expect(existsSync(marker)).toBe(true); // connecting did resolve the secret
    await rm(marker);

    const edited = {
      mcpServers: {
        ...warm.mcpServers,
        docs: fixture({ toolPrefix: "none", args: [stdioFixtureServerPath, "--edited"] }),
        off: fixture({ disabled: true }),
      },
    };
    const snapshot = await loadStartupSnapshot({
      cwd: dir.path,
      config: edited,
      metadataCacheFile: cacheFile,
    });

    expect(snapshot.servers.map((s) => s.server.name)).toEqual(["weather", "docs"]);
    const weather = snapshot.servers[0]!;
    expect(weather.metadata?.map((t) => t.prefixedName)).toContain("weather_get_weather");
    expect(weather.metadata?.every((t) => t.server === "weather")).toBe(true);
    // An edited definition has a new hash: its old listing is not trusted.
    expect(snapshot.missing).toEqual(["docs"]);
    expect(snapshot.servers[1]!.listing).toBeUndefined();
    expect(await recordedPids(dir.join("pids"))).toHaveLength(2);
    expect(existsSync(marker)).toBe(false);

    // The session's runtime reuses the snapshot's cache: the file is not read again.
    await rm(cacheFile);
    const session = await createRuntime({ cwd: dir.path, config: edited, snapshot, npxCacheFile: false });
    try {
      expect(session.listings.summaries().find((s) => s.name === "weather")?.state).toBe("cached");
      const hits = await session.catalog.search("weather forecast", { server: "weather" });
      expect(hits.hits[0]?.tool.prefixedName).toBe("weather_get_weather");
      expect(await recordedPids(dir.join("pids"))).toHaveLength(2);
    } finally {
      await session.shutdown();
    }
  });

  it("a missing or corrupt cache file leaves every server missing instead of failing", async () => {
    await using dir = await createTempDir();
    await writeFile(dir.join("mcp-cache.json"), "{ not json");
    const snapshot = await loadStartupSnapshot({
      cwd: dir.path,
      config: { mcpServers: { a: { command: "does-not-exist" } } },
      metadataCacheFile: dir.join("mcp-cache.json"),
    });
    expect(snapshot.missing).toEqual(["a"]);
    expect(snapshot.config.problems).toEqual([]);
  });

  it("finds what a session cached when a global requestTimeoutMs applies to the servers", async () => {
    await using dir = await createTempDir();
    const cacheFile = dir.join("mcp-cache.json");
    const config = {
      settings: { requestTimeoutMs: 12_000 },
      mcpServers: { weather: { command: process.execPath, args: [stdioFixtureServerPath] } },
    };
    const first = await createRuntime({
      cwd: dir.path,
      config,
      metadataCacheFile: cacheFile,
      npxCacheFile: false,
    });
    expect((await first.catalog.view()).unavailable).toEqual([]);
    await first.shutdown();

    const snapshot = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
    expect(snapshot.missing).toEqual([]);
    expect(snapshot.servers[0]?.metadata?.map((t) => t.prefixedName)).toContain("weather_get_weather");
  });
});
