import { mkdir, writeFile } from "node:fs/promises";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { setServerDisabled } from "@pi-mcp-adapter/config/setup";
import {
  connectInMemory,
  createFixtureServer,
  createTempDir,
  recordedPids,
  stdioFixtureServerPath,
} from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { AdapterRuntime, createRuntime } from "../../src/index.js";
import { connectWith, stdioDefinition } from "../definitions.js";

const def = stdioDefinition;

/** A real SDK server whose `grow` tool adds a tool and says so with `tools/list_changed`. */
function growingServer(): Server {
  const server = new Server(
    { name: "growing", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  const tools: Tool[] = [{ name: "grow", description: "Add a tool", inputSchema: { type: "object" } }];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async () => {
    tools.push({ name: "harvest", description: "Harvest the crop", inputSchema: { type: "object" } });
    await server.sendToolListChanged();
    return { content: [{ type: "text", text: "grown" }] };
  });
  return server;
}

describe("live server list", () => {
  it("lists a server again when it says its tools changed", async () => {
    const runtime = new AdapterRuntime({
      servers: [def("farm")],
      connect: async (definition) =>
        connectServer(definition, { transport: await connectInMemory(growingServer()) }),
    });
    try {
      expect((await runtime.catalog.view()).tools.map((t) => t.prefixedName)).toEqual(["farm_grow"]);
      await runtime.call("farm_grow", {});
      await expect
        .poll(async () => (await runtime.catalog.view()).tools.map((t) => t.prefixedName))
        .toEqual(["farm_grow", "farm_harvest"]);
      expect((await runtime.catalog.search("harvest crop")).hits[0]?.tool.prefixedName).toBe("farm_harvest");
    } finally {
      await runtime.shutdown();
    }
  });

  it("replace keeps unchanged servers connected, reconnects changed ones, adds and removes", async () => {
    const connects = new Map<string, number>();
    const runtime = new AdapterRuntime({
      servers: [def("keep"), def("change"), def("drop")],
      connect: async (definition) => {
        connects.set(definition.name, (connects.get(definition.name) ?? 0) + 1);
        const tools = [{ name: definition.args?.[0] ?? "ping" }];
        return connectServer(definition, {
          transport: await connectInMemory(createFixtureServer({ name: definition.name, tools })),
        });
      },
    });
    try {
      await runtime.catalog.view();
      expect(Object.fromEntries(connects)).toEqual({ keep: 1, change: 1, drop: 1 });

      await runtime.replace([def("keep"), def("change", { args: ["pong"] }), def("add")]);
      const names = (await runtime.catalog.view()).tools.map((t) => t.prefixedName).sort();
      expect(names).toEqual(["add_ping", "change_pong", "keep_ping"]);
      expect(Object.fromEntries(connects)).toEqual({ keep: 1, change: 2, drop: 1, add: 1 });
      expect(runtime.listings.summaries().map((s) => s.name)).toEqual(["keep", "change", "add"]);

      await runtime.replace([def("keep"), def("change", { args: ["pong"], disabled: true }), def("add")]);
      expect(runtime.listings.summaries().find((s) => s.name === "change")?.state).toBe("disabled");
      await expect(runtime.call("change_pong", {})).rejects.toThrow(/No MCP tool named "change_pong"/);
    } finally {
      await runtime.shutdown();
    }
  });

  it("reload applies /mcp-adapter disable and enable from the project file without a new session", async () => {
    await using dir = await createTempDir();
    const project = dir.join("project");
    await mkdir(dir.join("pids"), { recursive: true });
    await mkdir(project);
    const entry = {
      command: process.execPath,
      args: [stdioFixtureServerPath],
      env: { FIXTURE_PID_DIR: dir.join("pids") },
    };
    await writeFile(`${project}/.mcp.json`, JSON.stringify({ mcpServers: { fixture: entry } }));
    const env = { HOME: process.env.HOME, PI_CODING_AGENT_DIR: process.env.PI_CODING_AGENT_DIR };
    process.env.HOME = dir.join("home");
    process.env.PI_CODING_AGENT_DIR = dir.join("agent");
    const runtime = await createRuntime({ cwd: project, metadataCacheFile: false, npxCacheFile: false });
    try {
      const first = await runtime.call("fixture_get_weather", { city: "Oslo" });
      expect(first.isError).toBe(false);
      expect(await recordedPids(dir.join("pids"))).toHaveLength(1);

      await setServerDisabled({ cwd: project, server: "fixture", disabled: true, trusted: undefined });
      expect(await runtime.reload()).toEqual({ added: [], removed: [], redefined: [], toggled: ["fixture"] });
      expect(runtime.listings.summaries()).toEqual([
        expect.objectContaining({ name: "fixture", state: "disabled" }),
      ]);
      await expect(runtime.call("fixture_get_weather", { city: "Oslo" })).rejects.toThrow(/No MCP tool/);

      await setServerDisabled({ cwd: project, server: "fixture", disabled: false, trusted: undefined });
      await runtime.reload();
      const again = await runtime.call("fixture_get_weather", { city: "Oslo" });
      expect(again.content).toEqual([{ type: "text", text: expect.stringContaining("Weather in Oslo") }]);
      expect(await recordedPids(dir.join("pids"))).toHaveLength(2);
    } finally {
      await runtime.shutdown();
      Object.assign(process.env, env);
    }
  });

  it("a runtime built from a fixed server list says reload is not available", async () => {
    const runtime = new AdapterRuntime({ servers: [], connect: connectWith() });
    await expect(runtime.reload()).rejects.toThrow("This MCP runtime has a fixed server list");
    await runtime.shutdown();
  });
});
