/**
 * The environment the host hands in decides where the runtime reads and
 * writes: the agent dir's config file and metadata cache, and the home's
 * user files, whatever `PI_CODING_AGENT_DIR` says. A real stdio fixture
 * server is listed, so the cache is really written.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { processEnvironment } from "@pi-mcp-adapter/core";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../src/index.js";
import { loadStartupSnapshot } from "../src/startup.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the host's environment", () => {
  it("createRuntime and loadStartupSnapshot use the agent dir handed in, not $PI_CODING_AGENT_DIR", async () => {
    await using dir = await createTempDir();
    const handed = dir.join("handed-agent");
    const ambient = dir.join("ambient-agent");
    const serverFile = (name: string) =>
      JSON.stringify({
        mcpServers: { [name]: { command: process.execPath, args: [stdioFixtureServerPath] } },
      });
    for (const d of [handed, ambient, dir.join("project"), dir.join("home")]) await mkdir(d);
    await writeFile(`${handed}/mcp-adapter.json`, serverFile("from-handed"));
    await writeFile(`${ambient}/mcp-adapter.json`, serverFile("from-ambient"));
    vi.stubEnv("PI_CODING_AGENT_DIR", ambient);
    const environment = processEnvironment({ agentDir: handed, home: dir.join("home") });
    const cwd = dir.join("project");

    const snapshot = await loadStartupSnapshot({ cwd, environment });
    expect(snapshot.servers.map((s) => s.server.name)).toEqual(["from-handed"]);

    const runtime = await createRuntime({ cwd, environment, npxCacheFile: false, serverLogFile: false });
    try {
      expect(runtime.listings.summaries().map((s) => s.name)).toEqual(["from-handed"]);
      expect((await runtime.catalog.view()).unavailable).toEqual([]);
      // The listing is kept in the handed-in agent dir's metadata cache.
      await expect.poll(() => existsSync(`${handed}/mcp-cache.json`), { timeout: 30_000 }).toBe(true);
      expect(existsSync(`${ambient}/mcp-cache.json`)).toBe(false);
    } finally {
      await runtime.shutdown();
    }
  });
});
