import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { connectInMemory, createFixtureServer, createTempDir } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { AUTO_DIRECT_LIMITS, decideAutoDirect } from "../../src/catalog/auto-direct-tools.js";
import { AdapterRuntime, createRuntime } from "../../src/index.js";
import {
  loadStartupSnapshot,
  planDirectTools,
  serversNeedingListing,
  snapshotAutoDirect,
} from "../../src/startup.js";
import { stdioDefinition as def } from "../definitions.js";

const tool = (server: string, name: string, extra: Partial<ToolMetadata> = {}): ToolMetadata => ({
  server,
  name,
  prefixedName: `${server}_${name}`,
  description: `Does ${name}`,
  inputSchema: { type: "object" },
  kind: "tool",
  ...extra,
});
const tools = (server: string, n: number) => Array.from({ length: n }, (_, i) => tool(server, `t${i}`));
const names = (plan: { tools: { name: string }[] }) => plan.tools.map((t) => t.name);

describe('directTools "auto": the plan', () => {
  it("declares every tool of the servers that follow auto while the whole enabled catalog is small", () => {
    const servers = [
      { definition: def("time"), metadata: tools("time", 2) },
      // Its own value wins (proxy), but its tools count towards the catalog.
      { definition: def("notes", { directTools: false }), metadata: tools("notes", 3) },
      // Disabled servers are not part of the catalog.
      { definition: def("off", { disabled: true }), metadata: tools("off", 50) },
    ];
    const plan = planDirectTools(servers, { directTools: "auto" });
    expect(names(plan)).toEqual(["time_t0", "time_t1"]);
    expect(plan.auto).toEqual({
      servers: ["time"],
      reason: 'directTools "auto": 5 tools, 40 tokens (at most 10 tools / 2,000 tokens): declared directly',
    });
  });

  it("keeps everything behind the proxy past either limit: more tools, or more tokens", () => {
    const many = planDirectTools(
      [
        { definition: def("a"), metadata: tools("a", 6) },
        { definition: def("b"), metadata: tools("b", AUTO_DIRECT_LIMITS.tools - 5) },
      ],
      { directTools: "auto" },
    );
    expect(names(many)).toEqual([]);
    expect(many.auto?.reason).toBe(
      'directTools "auto": 11 tools, 77 tokens (over 10 tools / 2,000 tokens): behind the proxy',
    );
    const schema = { type: "object", properties: { q: { type: "string", description: "x".repeat(8_000) } } };
    const heavy = planDirectTools(
      [{ definition: def("big"), metadata: [tool("big", "query", { inputSchema: schema })] }],
      { directTools: "auto" },
    );
    expect(names(heavy)).toEqual([]);
    expect(heavy.auto?.reason).toMatch(/1 tool, 2,0\d\d tokens \(over/);
  });

  it("counts only tools the model could call: not resources, prompts or app-only tools", () => {
    const metadata = [
      ...tools("docs", 2),
      ...Array.from({ length: 20 }, (_, i) => tool("docs", `r${i}`, { kind: "resource" })),
      tool("docs", "panel", { ui: { visibility: ["app"] } }),
    ];
    const plan = planDirectTools(
      [{ definition: def("docs") }].map((s) => ({ ...s, metadata })),
      {
        directTools: "auto",
      },
    );
    expect(names(plan)).toEqual(["docs_t0", "docs_t1"]);
  });

  it("treats a server whose tools are not known as a large catalog, and never lists one to decide", () => {
    const servers = [
      { definition: def("known"), metadata: tools("known", 1) },
      { definition: def("cold"), metadata: undefined },
    ];
    const plan = planDirectTools(servers, { directTools: "auto" });
    expect(names(plan)).toEqual([]);
    expect(plan.auto?.reason).toBe(
      'directTools "auto": behind the proxy this session, since the tools of "cold" are not known yet (the next start decides)',
    );
    expect(serversNeedingListing(servers, { directTools: "auto" })).toEqual([]);
  });

  it("a server's own auto joins in under a global default of false; no server following auto decides nothing", () => {
    const servers = [
      { definition: def("time", { directTools: "auto" }), metadata: tools("time", 2) },
      { definition: def("git"), metadata: tools("git", 3) },
    ];
    expect(names(planDirectTools(servers, { directTools: false }))).toEqual(["time_t0", "time_t1"]);
    expect(decideAutoDirect(servers, { directTools: true })?.servers).toEqual(["time"]);
    const none = planDirectTools([servers[1]!], { directTools: true });
    expect(none.auto).toBeUndefined();
    expect(names(none)).toEqual(["git_t0", "git_t1", "git_t2"]);
  });

  it("follows the decision it is given: tools a direct server adds later are declared, new servers are not", () => {
    const earlier = { servers: ["time"], reason: "decided at start-up" };
    const grown = [
      { definition: def("time"), metadata: tools("time", 12) },
      { definition: def("late"), metadata: tools("late", 1) },
    ];
    const plan = planDirectTools(grown, { directTools: "auto" }, [], earlier);
    expect(names(plan)).toHaveLength(12);
    expect(plan.tools.every((t) => t.tool.server === "time")).toBe(true);
    expect(plan.auto).toBe(earlier);
  });
});

describe('directTools "auto": one decision per session', () => {
  it("is made by the first plan that needs it and then kept, even once the catalog is listed", async () => {
    const runtime = new AdapterRuntime({
      servers: [def("seed")],
      direct: { directTools: "auto" },
      connect: async (definition) =>
        connectServer(definition, {
          transport: await connectInMemory(createFixtureServer({ tools: [{ name: "grow" }] })),
        }),
    });
    try {
      // Nothing is listed yet: the size is unknown, so the session stays behind the proxy...
      expect(runtime.catalog.directTools().tools).toEqual([]);
      await runtime.catalog.view();
      // ...also once the one small server is known (the next session decides with it).
      expect(runtime.catalog.directTools().tools).toEqual([]);
      expect(runtime.catalog.directTools().auto?.reason).toMatch(/not known yet/);
    } finally {
      await runtime.shutdown();
    }
  });

  it("a runtime decides when it is made, from the startup snapshot or else the cache", async () => {
    await using dir = await createTempDir();
    const cacheFile = dir.join("mcp-cache.json");
    const config = {
      settings: { directTools: "auto" },
      mcpServers: {
        time: { command: "time-server" },
        notes: { command: "notes-server", directTools: false },
      },
    };
    const cold = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
    expect(snapshotAutoDirect(cold)?.servers).toEqual([]);
    // Listings of an earlier session, as the cache holds them.
    const cache = new MetadataCache({ file: cacheFile });
    for (const server of cold.config.servers) {
      const listed = server.name === "time" ? ["now", "zone"] : ["add"];
      await cache.put(server.name, definitionHash(server), {
        tools: listed.map((name) => ({ name, inputSchema: { type: "object" } })),
      });
    }
    const warm = await loadStartupSnapshot({ cwd: dir.path, config, metadataCacheFile: cacheFile });
    expect(snapshotAutoDirect(warm)?.servers).toEqual(["time"]);
    // The session's runtime, from the snapshot; another one (no snapshot) reads the cache when it is made.
    for (const source of [{ snapshot: warm }, { metadataCacheFile: cacheFile }]) {
      const runtime = await createRuntime({ cwd: dir.path, config, npxCacheFile: false, ...source });
      try {
        expect((await runtime.catalog.view()).unavailable).toEqual([]); // from the cache: nothing starts
        expect(runtime.catalog.directTools().tools.map((t) => t.name)).toEqual(["time_now", "time_zone"]);
      } finally {
        await runtime.shutdown();
      }
    }
  });
});
