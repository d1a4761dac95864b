import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { connectInMemory, createFixtureServer, type FixtureTool } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { AdapterRuntime } from "../src/index.js";
import { runProxyRequest } from "../src/tools/proxy-request.js";
import { connectWith, stdioDefinition } from "./definitions.js";

const def = stdioDefinition;

const weatherTools: FixtureTool[] = [
  {
    name: "get_forecast",
    description: "Weather forecast for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    handler: (args) => ({ content: [{ type: "text", text: `Sunny in ${String(args.city)}` }] }),
  },
  {
    name: "explode",
    description: "Always fails",
    handler: () => ({ isError: true, content: [{ type: "text", text: "boom" }] }),
  },
];
const notesTools: FixtureTool[] = [{ name: "add_note", description: "Add a note" }, { name: "get_forecast" }];

function runtimeWith(servers: ServerDefinition[], connectCount?: Map<string, number>) {
  const toolsFor: Record<string, FixtureTool[]> = { weather: weatherTools, notes: notesTools };
  return new AdapterRuntime({
    servers,
    connect: async (definition) => {
      connectCount?.set(definition.name, (connectCount.get(definition.name) ?? 0) + 1);
      const tools = toolsFor[definition.name];
      if (!tools) throw new Error(`cannot start ${definition.name}`);
      const instructions =
        definition.name === "weather"
          ? "Weather data for any city.\u001b[31m Ask for a forecast.\nMore."
          : undefined;
      const transport = await connectInMemory(
        createFixtureServer({ name: definition.name, tools, pageSize: 1, instructions }),
      );
      return connectServer(definition, { transport });
    },
  });
}

describe("AdapterRuntime", () => {
  it("connects nothing until first use, then lists every page of tools", async () => {
    const counts = new Map<string, number>();
    const runtime = runtimeWith([def("weather"), def("notes")], counts);
    expect(runtime.listings.summaries().map((s) => s.state)).toEqual(["not-connected", "not-connected"]);
    expect(counts.size).toBe(0);
    const view = await runtime.catalog.view();
    expect(view.tools.map((t) => t.prefixedName)).toEqual([
      "weather_get_forecast",
      "weather_explode",
      "notes_add_note",
      "notes_get_forecast",
    ]);
    await runtime.catalog.view();
    expect([...counts.values()]).toEqual([1, 1]);
    expect(runtime.listings.summaries().map((s) => [s.state, s.toolCount])).toEqual([
      ["connected", 2],
      ["connected", 2],
    ]);
    await runtime.shutdown();
  });

  it("searches, describes and calls through the proxy request", async () => {
    const runtime = runtimeWith([def("weather"), def("notes")]);
    const search = await runProxyRequest(runtime, { search: "weather forecast" });
    expect((search.details as { hits: string[] }).hits).toContain("weather_get_forecast");
    const describe = await runProxyRequest(runtime, { describe: "weather-get-forecast" });
    expect(describe.content[0]).toMatchObject({ type: "text" });
    expect((describe.content[0] as { text: string }).text).toContain("- city (string, required)");
    const call = await runProxyRequest(runtime, { tool: "weather_get_forecast", args: '{"city":"Oslo"}' });
    expect(call.content).toEqual([{ type: "text", text: "Sunny in Oslo" }]);
    expect(call.isError).toBe(false);
    expect(call.details).toMatchObject({
      mode: "call",
      server: "weather",
      tool: "get_forecast",
      mcpResult: { content: [{ type: "text", text: "Sunny in Oslo" }] },
    });
    await runtime.shutdown();
  });

  it("marks tool errors, asks for the server on ambiguous names, and suggests names for typos", async () => {
    const runtime = runtimeWith([def("weather"), def("notes")]);
    const failed = await runProxyRequest(runtime, { tool: "weather_explode" });
    expect(failed.isError).toBe(true);
    await expect(runProxyRequest(runtime, { tool: "get_forecast" })).rejects.toThrow(
      /several servers.*Pass server/,
    );
    const scoped = await runProxyRequest(runtime, {
      tool: "get_forecast",
      server: "weather",
      args: { city: "Rome" },
    });
    expect(scoped.content).toEqual([{ type: "text", text: "Sunny in Rome" }]);
    await expect(runProxyRequest(runtime, { describe: "weather_get_forcast" })).rejects.toThrow(
      /Did you mean: weather_get_forecast/,
    );
    await expect(runProxyRequest(runtime, { tool: "weather_get_forecast", args: "[1,2]" })).rejects.toThrow(
      /args must be a JSON object/,
    );
    await runtime.shutdown();
  });

  it("lists each known server's instructions head in the status, never connecting to learn it", async () => {
    const counts = new Map<string, number>();
    const runtime = runtimeWith([def("weather"), def("notes")], counts);
    const before = await runProxyRequest(runtime, {});
    expect((before.content[0] as { text: string }).text).not.toContain("Weather data");
    expect(counts.size).toBe(0);
    await runtime.catalog.view();
    const after = (await runProxyRequest(runtime, {})).content[0] as { text: string };
    // Each server's lines end with its config file and how long its connect took.
    expect(after.text).toMatch(
      /- weather: connected, 2 tools\n {2}Weather data for any city\.\n {2}from \/project\/\.mcp\.json · last connect \d+(\.\d)? m?s\n- notes:/,
    );
    await runtime.shutdown();
  });

  it("says why no server loaded instead of claiming none is configured", async () => {
    const runtime = new AdapterRuntime({
      servers: [],
      connect: connectWith(),
      problems: [
        { severity: "info", file: "/p/.mcp.json", message: "not loaded: the project is not trusted" },
      ],
    });
    const status = (await runProxyRequest(runtime, {})).content[0] as { text: string };
    expect(status.text).toBe(
      "No MCP servers loaded (see below).\ninfo: /p/.mcp.json: not loaded: the project is not trusted",
    );
  });

  it("reports a server that cannot start without hiding the others", async () => {
    const runtime = runtimeWith([def("weather"), def("broken")]);
    const search = await runProxyRequest(runtime, { search: "forecast" });
    const text = (search.content[0] as { text: string }).text;
    expect(text).toContain("weather_get_forecast");
    expect(text).toContain("server broken unavailable: cannot start broken");
    const status = await runProxyRequest(runtime, {});
    expect((status.content[0] as { text: string }).text).toMatch(
      /- broken: failed \d+s ago: cannot start broken/,
    );
    await runtime.shutdown();
  });

  it("discovers at most four servers at once", async () => {
    let inFlight = 0;
    let most = 0;
    let started = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const names = Array.from({ length: 9 }, (_, i) => `s${i}`);
    const runtime = new AdapterRuntime({
      servers: names.map((name) => def(name)),
      connect: async (definition) => {
        started += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await gate;
        inFlight -= 1;
        const server = createFixtureServer({ name: definition.name, tools: [{ name: "ping" }] });
        return connectServer(definition, { transport: await connectInMemory(server) });
      },
    });
    const listing = runtime.catalog.view();
    // Four connects are held open; the other five must wait for a slot, however slow the machine.
    await expect.poll(() => inFlight).toBe(4);
    expect(started).toBe(4);
    release();
    const view = await listing;
    expect(view.tools).toHaveLength(9);
    expect(started).toBe(9);
    expect(most).toBe(4);
    await runtime.shutdown();
  });

  it("never connects disabled servers", async () => {
    const counts = new Map<string, number>();
    const runtime = runtimeWith([def("weather", { disabled: true }), def("notes")], counts);
    await runtime.catalog.view();
    expect([...counts.keys()]).toEqual(["notes"]);
    expect(runtime.listings.summaries()[0]?.state).toBe("disabled");
    await runtime.shutdown();
  });
});
