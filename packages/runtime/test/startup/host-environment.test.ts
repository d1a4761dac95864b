/**
 * The environment the host hands in decides where the runtime reads and
 * writes: the agent dir's config file and metadata cache, and the home's
 * user files, whatever `PI_CODING_AGENT_DIR` says; and its clock drives the
 * runtime's policies and the ages its status shows (here the per-server
 * limit on forms, and a failed server's age in snapshots and `mcp({})`). Real stdio
 * fixture servers are listed, so the cache is really written and the forms
 * really asked for.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { processEnvironment } from "@pi-mcp-adapter/core";
import { clientFeaturesServerPath, createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime, headlessHost, runProxyRequest } from "../../src/index.js";
import { loadStartupSnapshot, type McpStatusSnapshot } from "../../src/startup.js";
import { uiHost } from "../hosts.js";

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

  it("the clock handed in is the one the form rate limit counts on (5 at once, one more every 12 s)", async () => {
    await using dir = await createTempDir();
    let time = 1_000_000;
    const environment = processEnvironment({ agentDir: dir.path, home: dir.path, now: () => time });
    const notices: string[] = [];
    const runtime = await createRuntime({
      cwd: dir.path,
      environment,
      config: { mcpServers: { forms: { command: process.execPath, args: [clientFeaturesServerPath] } } },
      metadataCacheFile: false,
      npxCacheFile: false,
      serverLogFile: false,
      // The user dismisses every form; each one still counts against the server's limit.
      host: uiHost(async () => undefined, { notify: (message) => notices.push(message) }),
    });
    const limited = async () => {
      const result = await runtime.call("forms_elicit", {});
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      return text.includes("too many elicitation and sampling requests");
    };
    try {
      for (let i = 0; i < 5; i++) expect(await limited()).toBe(false);
      expect(await limited()).toBe(true);
      expect(notices.some((n) => n.includes('MCP server "forms" asked for too many forms'))).toBe(true);
      // Only the handed-in clock moves: 12 s on it give the server one form back.
      time += 12_000;
      expect(await limited()).toBe(false);
      expect(await limited()).toBe(true);
    } finally {
      await runtime.shutdown();
    }
  });

  it("status snapshots read a failed server's age on the clock handed in", async () => {
    await using dir = await createTempDir();
    let time = 1_000_000;
    const environment = processEnvironment({ agentDir: dir.path, home: dir.path, now: () => time });
    const broken = { command: process.execPath, args: [dir.join("no-such-server.mjs")] };
    const snapshots: McpStatusSnapshot[] = [];
    const runtime = await createRuntime({
      cwd: dir.path,
      environment,
      config: { mcpServers: { first: broken, second: broken } },
      metadataCacheFile: false,
      npxCacheFile: false,
      serverLogFile: false,
      host: headlessHost({ status: (snapshot) => snapshots.push(snapshot) }),
    });
    const failedAgo = () => snapshots.at(-1)?.servers.find((s) => s.name === "first")?.failedAgoSeconds;
    try {
      expect((await runtime.catalog.view("first")).unavailable).toHaveLength(1);
      expect(failedAgo()).toBe(0);
      // 30 s later on the handed-in clock, the next snapshot (the second server failing) says so.
      time += 30_000;
      expect((await runtime.catalog.view("second")).unavailable).toHaveLength(1);
      await expect.poll(failedAgo, { timeout: 30_000 }).toBe(30);
      // So does the status text of `mcp({})`.
      const status = (await runProxyRequest(runtime, {})).content.map((c) =>
        c.type === "text" ? c.text : "",
      );
      expect(status.join("\n")).toMatch(/- first: failed 30s ago: /);
    } finally {
      await runtime.shutdown();
    }
  });
});
