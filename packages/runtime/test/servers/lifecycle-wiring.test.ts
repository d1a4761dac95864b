import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  connectInMemory,
  createFixtureServer,
  createTempDir,
  faultServerPath,
  recordedPids,
  stdioFixtureServerPath,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { AdapterRuntime, createRuntime } from "../../src/index.js";
import { watchStatus } from "../../src/observability/status-events.js";
import type { McpStatusSnapshot } from "../../src/startup.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

const textOf = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

/** An inline config (no files read) with the caches in the temp dir. */
function runtimeFrom(
  dir: string,
  mcpServers: Record<string, unknown>,
  settings: Record<string, unknown> = {},
) {
  return createRuntime({
    cwd: dir,
    config: { mcpServers, settings },
    metadataCacheFile: `${dir}/mcp-cache.json`,
    npxCacheFile: false,
  });
}

describe("lifecycle wiring of the shell", () => {
  it("shutdown ends a server stuck in initialize at once instead of waiting out the request timeout", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("pids"));
    const runtime = await runtimeFrom(dir.path, {
      stuck: {
        command: process.execPath,
        args: [faultServerPath],
        env: { FAULT_MODE: "never-initialize", FIXTURE_PID_DIR: dir.join("pids") },
        requestTimeoutMs: 60_000,
      },
    });
    const listing = runtime.catalog.view();
    await expect.poll(() => recordedPids(dir.join("pids")), { timeout: 5000 }).toHaveLength(1);
    const started = Date.now();
    await runtime.shutdown();
    expect(Date.now() - started).toBeLessThan(5000);
    const view = await listing;
    expect(view.unavailable[0]?.server).toBe("stuck");
    expect(await waitForExit(await recordedPids(dir.join("pids")))).toEqual([]);
  }, 15_000);

  it("start() connects eager servers only, and snapshots follow each change without connecting lazy ones", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("eager-pids"));
    await mkdir(dir.join("lazy-pids"));
    const fixture = (pids: string, lifecycle: string) => ({
      command: process.execPath,
      args: [stdioFixtureServerPath],
      env: { FIXTURE_PID_DIR: dir.join(pids) },
      lifecycle,
    });
    const runtime = await runtimeFrom(dir.path, {
      early: fixture("eager-pids", "eager"),
      later: fixture("lazy-pids", "lazy"),
      off: { ...fixture("lazy-pids", "lazy"), disabled: true },
    });
    const snapshots: McpStatusSnapshot[] = [];
    const stop = watchStatus(runtime, (s) => snapshots.push(s));
    expect(snapshots[0]).toEqual({
      totalTools: 0,
      totalResources: 0,
      connectedCount: 0,
      disabledCount: 1,
      servers: [
        { name: "early", status: "not-connected", toolCount: 0, disabled: false },
        { name: "later", status: "not-connected", toolCount: 0, disabled: false },
        { name: "off", status: "disabled", toolCount: 0, disabled: true },
      ],
    });
    const statuses = await runtime.start();
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ["early", "connected"],
      ["later", "not-connected"],
      ["off", "disabled"],
    ]);
    expect(await recordedPids(dir.join("eager-pids"))).toHaveLength(1);
    expect(await recordedPids(dir.join("lazy-pids"))).toEqual([]);
    expect(snapshots.map((s) => s.servers[0]?.status)).toEqual(["not-connected", "connecting", "connected"]);
    expect(snapshots.at(-1)?.connectedCount).toBe(1);
    stop();
    await runtime.shutdown();
  }, 15_000);

  it("reports a failed eager server with failedAgoSeconds", async () => {
    await using dir = await createTempDir();
    const runtime = await runtimeFrom(dir.path, {
      broken: {
        command: process.execPath,
        args: [faultServerPath],
        env: { FAULT_MODE: "exit-on-initialize" },
        lifecycle: "eager",
      },
    });
    const snapshots: McpStatusSnapshot[] = [];
    watchStatus(runtime, (s) => snapshots.push(s));
    await runtime.start();
    const last = snapshots.at(-1)?.servers[0];
    expect(last).toMatchObject({ name: "broken", status: "failed", toolCount: 0 });
    expect(last?.failedAgoSeconds).toBeGreaterThanOrEqual(0);
    await runtime.shutdown();
  }, 15_000);

  it("says cached for a server listed in an earlier session, without connecting it", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("pids"));
    const servers = {
      weather: {
        command: process.execPath,
        args: [stdioFixtureServerPath],
        env: { FIXTURE_PID_DIR: dir.join("pids") },
      },
    };
    const first = await runtimeFrom(dir.path, servers);
    expect(first.listings.summaries()[0]?.state).toBe("not-connected");
    await first.catalog.view();
    await first.shutdown();
    const pidsAfterFirst = await recordedPids(dir.join("pids"));
    expect(pidsAfterFirst).toHaveLength(1);

    const second = await runtimeFrom(dir.path, servers);
    expect(second.listings.summaries()[0]?.state).toBe("cached");
    expect(await recordedPids(dir.join("pids"))).toEqual(pidsAfterFirst);
    await second.shutdown();
  }, 15_000);

  it("a debug server's recent stderr shows in mcp({server}); another server's never does", async () => {
    await using dir = await createTempDir();
    const noisy = (debug: boolean) => ({
      command: process.execPath,
      args: [faultServerPath],
      env: { FAULT_MODE: "flood-stderr", FAULT_STDERR_BYTES: "300" },
      debug,
    });
    const runtime = await runtimeFrom(dir.path, { loud: noisy(true), quiet: noisy(false) });
    await runtime.catalog.view();
    await expect
      .poll(() => runtime.servers.debugStderr("loud").at(-1), { timeout: 3000 })
      .toBe("last stderr line");
    const loud = textOf(await runProxyRequest(runtime, { server: "loud" }));
    expect(loud).toContain("Recent stderr of loud (debug):");
    expect(loud).toContain("  last stderr line");
    const quiet = textOf(await runProxyRequest(runtime, { server: "quiet" }));
    expect(quiet).not.toContain("stderr");
    expect(runtime.servers.debugStderr("quiet")).toEqual([]);
    await runtime.shutdown();
  }, 15_000);
});

describe("npx resolution cache", () => {
  it("runs a cached `npx -y pkg@version` server as its own bin and remembers that in the npx cache file", async () => {
    await using dir = await createTempDir();
    // A fake npm cache holding one `_npx` install whose bin starts the stdio fixture.
    const modules = dir.join("npm-cache", "_npx", "0123abcd", "node_modules");
    await mkdir(`${modules}/fixture-mcp`, { recursive: true });
    await mkdir(`${modules}/.bin`);
    await writeFile(
      `${modules}/fixture-mcp/package.json`,
      JSON.stringify({ name: "fixture-mcp", version: "1.2.3", bin: { "fixture-mcp": "server.mjs" } }),
    );
    const bin = `${modules}/.bin/fixture-mcp`;
    await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" "${stdioFixtureServerPath}" "$@"\n`);
    await chmod(bin, 0o755);
    const npxCacheFile = dir.join("agent", "mcp-npx-cache.json");
    const saved = process.env.npm_config_cache;
    process.env.npm_config_cache = dir.join("npm-cache");
    try {
      const runtime = await createRuntime({
        cwd: dir.path,
        config: { mcpServers: { fixture: { command: "npx", args: ["-y", "fixture-mcp@1.2.3"] } } },
        metadataCacheFile: false,
        npxCacheFile,
      });
      const view = await runtime.catalog.view();
      expect(view.unavailable).toEqual([]);
      expect(view.tools.map((t) => t.name)).toContain("whoami");
      await runtime.shutdown();
    } finally {
      if (saved === undefined) delete process.env.npm_config_cache;
      else process.env.npm_config_cache = saved;
    }
    const remembered = JSON.parse(await readFile(npxCacheFile, "utf8")) as {
      entries: Record<string, { command: string }>;
    };
    expect(Object.values(remembered.entries).map((e) => e.command)).toEqual([bin]);
  }, 15_000);
});

describe("output schema from cached metadata", () => {
  const definition: ServerDefinition = {
    name: "thermo",
    transport: "stdio",
    command: "unused",
    lifecycle: "lazy",
    protocol: "legacy",
    source: { file: "/project/.mcp.json", key: "mcpServers" },
  };

  it("checks structuredContent against the cached outputSchema although the connection never listed tools", async () => {
    await using dir = await createTempDir();
    const cache = new MetadataCache({ file: dir.join("mcp-cache.json") });
    await cache.put("thermo", definitionHash(definition), {
      tools: [
        {
          name: "read_temp",
          description: "Current temperature",
          inputSchema: { type: "object", properties: {} },
          outputSchema: {
            type: "object",
            properties: { celsius: { type: "number" } },
            required: ["celsius"],
          },
        },
      ],
    });
    const pids: string[] = [];
    const runtime = new AdapterRuntime({
      servers: [definition],
      catalog: { cache },
      connect: async (def) => {
        pids.push(def.name);
        const server = createFixtureServer({
          name: "thermo",
          tools: [
            {
              name: "read_temp",
              handler: () => ({
                content: [{ type: "text", text: "hot" }],
                structuredContent: { celsius: "hot" },
              }),
            },
          ],
        });
        return connectServer(def, { transport: await connectInMemory(server) });
      },
    });
    await expect(runProxyRequest(runtime, { tool: "thermo_read_temp" })).rejects.toThrow(
      "thermo: tools/call read_temp returned structuredContent that does not match its outputSchema: /celsius must be number",
    );
    expect(pids).toEqual(["thermo"]);
    await runtime.shutdown();
  });
});
