/**
 * Token cost per server, from real listings: the stdio fixture server is
 * listed by a real runtime (which fills the metadata cache), and the costs
 * come from the startup snapshot as `status` reads them and from a live
 * runtime as the panel reads them. The expected figures are counted here
 * independently: characters / 4 of the roster entry and of each
 * declaration (name + description + JSON Schema).
 */
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/index.js";
import {
  liveTokenCosts,
  loadStartupSnapshot,
  proxyToolDescription,
  snapshotTokenCosts,
} from "../../src/startup.js";
import { PROXY_TOOL_DESCRIPTION } from "../../src/tools/proxy-tool.js";
import { estimateTokens, serverTokenCosts } from "../../src/tools/token-cost.js";

let dir: TempDir;
beforeEach(async () => {
  dir = await createTempDir();
});
afterEach(async () => {
  await dir.remove();
});

const fixture = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [stdioFixtureServerPath],
  ...extra,
});

/** Lists the config's servers once for real (filling the cache), then reads the snapshot. */
async function snapshotOf(config: Record<string, unknown>) {
  const cacheFile = dir.join("mcp-cache.json");
  const runtime = await createRuntime({
    cwd: dir.path,
    config,
    metadataCacheFile: cacheFile,
    npxCacheFile: false,
  });
  try {
    expect((await runtime.catalog.view()).unavailable).toEqual([]);
  } finally {
    await runtime.shutdown();
  }
  return loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
}

/** Every tool of a server declared the way Pi declares a direct tool, as one text. */
function allDeclarations(
  tools: readonly { prefixedName: string; description: string; inputSchema: object }[],
) {
  return tools
    .map((t) => t.prefixedName + t.description + JSON.stringify({ ...t.inputSchema, type: "object" }))
    .join("");
}

describe("token cost per server", () => {
  it("proxy only: a server costs its roster entry; all direct adds every declaration", async () => {
    const snapshot = await snapshotOf({
      mcpServers: { weather: fixture({ description: "Forecasts" }), docs: fixture() },
    });
    const costs = snapshotTokenCosts(snapshot);
    // The roster the proxy declares: the user's description, else the head of the server's instructions.
    const docsEntry = 'docs ("A small fixture server: echo, add, weather and whoami."), ';
    expect(proxyToolDescription(snapshot.servers)).toBe(
      `${PROXY_TOOL_DESCRIPTION} Servers: weather ("Forecasts"), ${docsEntry.slice(0, -2)}.`,
    );
    const weatherTools = snapshot.servers[0]!.metadata!.filter((t) => t.kind === "tool");
    expect(weatherTools.length).toBeGreaterThan(2);
    expect(costs).toEqual([
      {
        server: "weather",
        roster: estimateTokens('weather ("Forecasts"), '),
        directTools: 0,
        direct: 0,
        perRequest: estimateTokens('weather ("Forecasts"), '),
        allDirect: estimateTokens('weather ("Forecasts"), ') + estimateTokens(allDeclarations(weatherTools)),
      },
      expect.objectContaining({ server: "docs", roster: estimateTokens(docsEntry), directTools: 0 }),
    ]);
    expect(costs[0]!.allDirect).toBeGreaterThan(costs[0]!.perRequest * 10);
  }, 30_000);

  it('direct tools count in every request; "search" ones do not until activated; no proxy, no roster', async () => {
    const snapshot = await snapshotOf({
      settings: { disableProxyTool: true },
      mcpServers: {
        all: fixture(),
        two: fixture({ directTools: ["echo", "add"] }),
        found: fixture({ directTools: "search" }),
      },
    });
    const [all, two, found] = snapshotTokenCosts(snapshot);
    expect(all).toMatchObject({ roster: 0, directTools: 0, perRequest: 0 });
    const twoTools = snapshot.servers[1]!.metadata!.filter((t) => t.name === "echo" || t.name === "add");
    expect(two).toMatchObject({
      roster: 0,
      directTools: 2,
      direct: estimateTokens(allDeclarations(twoTools)),
    });
    expect(two!.perRequest).toBeLessThan(two!.allDirect!);
    expect(found).toMatchObject({ directTools: 0, perRequest: 0 });
    const foundTools = snapshot.servers[2]!.metadata!.filter((t) => t.kind === "tool");
    expect(found!.allDirect).toBe(estimateTokens(allDeclarations(foundTools)));
  }, 30_000);

  it("a live session gives the same figures as the snapshot (tools from the cache, never connecting); unlisted servers have no all-direct figure", async () => {
    const config = { mcpServers: { weather: fixture({ directTools: true, description: "Forecasts" }) } };
    const snapshot = await snapshotOf(config);
    const runtime = await createRuntime({ cwd: dir.path, config, snapshot, npxCacheFile: false });
    try {
      const live = await liveTokenCosts(runtime);
      expect(live).toEqual(snapshotTokenCosts(snapshot));
      expect(live[0]!.perRequest).toBe(live[0]!.allDirect);
    } finally {
      await runtime.shutdown();
    }
    const unlisted = serverTokenCosts([{ server: { name: "new" }, tools: undefined }], [], { roster: true });
    expect(unlisted).toEqual([
      {
        server: "new",
        roster: estimateTokens("new, "),
        directTools: 0,
        direct: 0,
        perRequest: 2,
        allDirect: null,
      },
    ]);
  }, 30_000);

  it("servers the roster only counts in 'and N more' cost no roster tokens", () => {
    const servers = Array.from({ length: 60 }, (_, i) => ({
      server: { name: `server-number-${i}` },
      tools: [],
    }));
    const costs = serverTokenCosts(servers, [], { roster: true });
    const named = costs.filter((c) => c.roster > 0);
    expect(named.length).toBeGreaterThan(5);
    expect(named.length).toBeLessThan(60);
    expect(costs.slice(named.length).every((c) => c.roster === 0 && c.allDirect === 0)).toBe(true);
  });
});
