import { EventEmitter } from "node:events";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { MCP_TOOL_APPROVAL_REQUEST_EVENT, type ToolApprovalRequest } from "@pi-mcp-adapter/approval";
import type { ServerDefinition, ToolMetadata } from "@pi-mcp-adapter/core";
import { connectInMemory, createFixtureServer } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import type { ListingChangeReason } from "../../src/catalog/listings.js";
import { AdapterRuntime, headlessHost, runProxyRequest } from "../../src/index.js";
import { checkArguments, planDirectTools, serversNeedingListing } from "../../src/startup.js";
import { stdioDefinition } from "../definitions.js";

const def = stdioDefinition;
const meta = (server: string, name: string, extra: Partial<ToolMetadata> = {}): ToolMetadata => ({
  server,
  name,
  prefixedName: `${server}_${name}`,
  description: "",
  inputSchema: { type: "object" },
  kind: "tool",
  ...extra,
});

describe("planDirectTools", () => {
  const gh = [meta("github", "search_repositories"), meta("github", "get_file_contents")];

  it("never offers an app-only tool (MCP Apps visibility) as a direct tool", () => {
    const board = [
      meta("board", "show_board", { ui: { resourceUri: "ui://board/board.html" } }),
      meta("board", "add_item", { ui: { visibility: ["app"] } }),
      meta("board", "admin_reset", { ui: { visibility: ["model"] } }),
    ];
    const plan = planDirectTools([{ definition: def("board"), metadata: board }], { directTools: true });
    expect(plan.tools.map((t) => t.name)).toEqual(["board_show_board", "board_admin_reset"]);
  });

  it("takes nothing by default, all with true, and only the listed original names with a list", () => {
    expect(planDirectTools([{ definition: def("github"), metadata: gh }], {}).tools).toEqual([]);
    expect(
      planDirectTools([{ definition: def("github"), metadata: gh }], { directTools: true }).tools.map((t) => [
        t.name,
        t.exposure,
      ]),
    ).toEqual([
      ["github_search_repositories", "direct"],
      ["github_get_file_contents", "direct"],
    ]);
    const listed = planDirectTools(
      [{ definition: def("github", { directTools: ["search_repositories", "nope"] }), metadata: gh }],
      {},
    );
    expect(listed.tools.map((t) => t.name)).toEqual(["github_search_repositories"]);
    expect(listed.problems).toEqual([
      'Server "github": directTools names "nope", which it does not offer (or includeTools/excludeTools hide)',
    ]);
  });

  it("lets a server's own value win over the global default, and marks search exposure", () => {
    const servers = [
      { definition: def("github", { directTools: false }), metadata: gh },
      {
        definition: {
          ...def("docs", { directTools: true }),
          directToolsExposure: "search",
        } as ServerDefinition,
        metadata: [meta("docs", "read_doc")],
      },
      { definition: def("web"), metadata: [meta("web", "fetch")] },
    ];
    const plan = planDirectTools(servers, { directTools: "search" });
    expect(plan.tools.map((t) => [t.name, t.exposure])).toEqual([
      ["docs_read_doc", "search"],
      ["web_fetch", "search"],
    ]);
  });

  it("registers tools only, never resources or prompts listed as tools", () => {
    const metadata = [meta("s", "t"), meta("s", "readme", { kind: "resource", uri: "file:///r" })];
    expect(planDirectTools([{ definition: def("s"), metadata }], { directTools: true }).tools).toHaveLength(
      1,
    );
  });

  it("reports a collision instead of shadowing: with a host tool and between servers", () => {
    const plan = planDirectTools(
      [
        {
          definition: def("a", { toolPrefix: "none" }),
          metadata: [meta("a", "read", { prefixedName: "read" })],
        },
        { definition: def("a2", { toolPrefix: "none" }), metadata: [meta("a2", "x", { prefixedName: "x" })] },
        { definition: def("b", { toolPrefix: "none" }), metadata: [meta("b", "x", { prefixedName: "x" })] },
      ],
      { directTools: true },
      ["read", "mcp"],
    );
    expect(plan.tools.map((t) => `${t.tool.server}:${t.name}`)).toEqual(["a2:x"]);
    expect(plan.problems).toEqual([
      'Direct tool "read" of server "a" is not registered: the name is taken by a tool of the host (set toolPrefix to tell them apart)',
      'Direct tool "x" of server "b" is not registered: the name is taken by tool "x" of server "a2" (set toolPrefix to tell them apart)',
    ]);
  });

  it("names the servers that must be listed before their direct tools are known", () => {
    const servers = [
      { definition: def("cached", { directTools: true }), metadata: [meta("cached", "t")] },
      { definition: def("cold", { directTools: ["t"] }), metadata: undefined },
      { definition: def("proxy"), metadata: undefined },
      { definition: def("off", { directTools: true, disabled: true }), metadata: undefined },
    ];
    expect(serversNeedingListing(servers, {})).toEqual(["cold"]);
  });
});

describe("checkArguments", () => {
  const schema = {
    type: "object",
    properties: {
      a: { type: "number" },
      mode: { type: "string", enum: ["fast", "slow"] },
      opts: { type: "object", properties: { depth: { type: "integer" } }, required: ["depth"] },
    },
    required: ["a"],
    additionalProperties: false,
  };
  it("names the field that is missing, mistyped, out of its enum or unknown", () => {
    const problem = (args: Record<string, unknown>) => {
      try {
        checkArguments("calc_add", schema, args);
        return "ok";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problem({ a: 1, mode: "fast", opts: { depth: 2 } })).toBe("ok");
    expect(problem({})).toBe('Tool calc_add: argument "a" is required');
    expect(problem({ a: "1" })).toBe('Tool calc_add: argument "a" must be number (got string "1")');
    expect(problem({ a: 1, mode: "slowest" })).toBe(
      'Tool calc_add: argument "mode" must be one of "fast", "slow"',
    );
    expect(problem({ a: 1, opts: {} })).toBe('Tool calc_add: argument "opts.depth" is required');
    expect(problem({ a: 1, b: 2 })).toBe('Tool calc_add: unknown argument "b" (expected: a, mode, opts)');
  });
});

/** A real SDK server whose `grow` tool adds `harvest` and sends `tools/list_changed`. */
function growingServer(): Server {
  const server = new Server(
    { name: "farm", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  const tools: Tool[] = [
    {
      name: "grow",
      description: "Add a tool",
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    },
  ];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === "grow") {
      tools.push({ name: "harvest", description: "Harvest", inputSchema: { type: "object" } });
      await server.sendToolListChanged();
    }
    return {
      content: [{ type: "text", text: `${request.params.name} done` }],
      structuredContent: { done: request.params.name },
    };
  });
  return server;
}

describe("direct calls and catalog changes", () => {
  const farm = (direct: ConstructorParameters<typeof AdapterRuntime>[0]["direct"] = {}, extra = {}) =>
    new AdapterRuntime({
      servers: [def("farm", { directTools: true })],
      direct,
      ...extra,
      connect: async (definition) =>
        connectServer(definition, { transport: await connectInMemory(growingServer()) }),
    });

  it("tells listeners when a server's tools change, and plans the new tool", async () => {
    const runtime = farm();
    const changes: [string, ListingChangeReason][] = [];
    runtime.listings.onChange((server, reason) => changes.push([server, reason]));
    try {
      expect(runtime.catalog.directTools().tools).toEqual([]); // nothing known before listing
      await runtime.catalog.view();
      expect(runtime.catalog.directTools().tools.map((t) => t.name)).toEqual(["farm_grow"]);
      const result = await runtime.callDirect("farm_grow", "farm", { n: 1 });
      expect(result.content).toEqual([{ type: "text", text: "grow done" }]);
      // The notification came before the call's answer; its listing is awaited, not polled.
      await runtime.listings.settled();
      expect(runtime.catalog.directTools().tools.map((t) => t.name)).toEqual(["farm_grow", "farm_harvest"]);
      expect(changes).toEqual([
        ["farm", "listed"],
        ["farm", "list_changed"],
      ]);
      const connected = await runProxyRequest(runtime, { connect: "farm" });
      expect(connected.content).toEqual([{ type: "text", text: "Connected farm: 1 tool listed." }]);
      expect(changes.at(-1)).toEqual(["farm", "reconnect"]);
      await expect(runProxyRequest(runtime, { connect: "barn" })).rejects.toThrow(
        'Unknown MCP server "barn" (configured: farm)',
      );
      // Disabled in config: its direct tools leave the plan, and listeners hear why.
      await runtime.replace([def("farm", { directTools: true, disabled: true })]);
      expect(changes.at(-1)).toEqual(["farm", "config"]);
      expect(runtime.catalog.directTools().tools).toEqual([]);
    } finally {
      await runtime.shutdown();
    }
  });

  it("keeps details lean by default, bounded on request, never mcpResult", async () => {
    const lean = farm();
    const bounded = farm({ directToolResultDetails: "bounded" });
    try {
      const a = await lean.callDirect("farm_grow", "farm", { n: 1 });
      expect(a.details).toEqual({ server: "farm", name: "grow", kind: "tool" });
      const b = await bounded.callDirect("farm_grow", "farm", { n: 1 });
      expect(b.details).toEqual({
        server: "farm",
        name: "grow",
        kind: "tool",
        structuredContent: { done: "grow" },
      });
    } finally {
      await lean.shutdown();
      await bounded.shutdown();
    }
  });

  it("checks arguments first with strictDirectToolArguments, and refuses a tool the server no longer offers", async () => {
    const runtime = farm({ strictDirectToolArguments: true });
    try {
      await expect(runtime.callDirect("farm_grow", "farm", { n: "one" })).rejects.toThrow(
        'Tool farm_grow: argument "n" must be number (got string "one")',
      );
      await expect(runtime.callDirect("farm_grw", "farm", {})).rejects.toThrow(
        'MCP server "farm" no longer offers the tool "farm_grw"',
      );
    } finally {
      await runtime.shutdown();
    }
  });

  it("asks approval brokers with origin direct", async () => {
    const bus = new EventEmitter();
    const seen: ToolApprovalRequest[] = [];
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (request: ToolApprovalRequest) => {
      seen.push(request);
      request.claim(async () => "deny");
    });
    const host = { ...headlessHost(), events: { emit: (c: string, d: unknown) => bus.emit(c, d) } };
    const runtime = new AdapterRuntime({
      servers: [def("fs", { directTools: true, approveTools: true })],
      host,
      connect: async (d) =>
        connectServer(d, {
          transport: await connectInMemory(createFixtureServer({ tools: [{ name: "delete_file" }] })),
        }),
    });
    try {
      const result = await runtime.callDirect("fs_delete_file", "fs", { path: "/x" });
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toContain('"error":"denied"');
      expect(seen.map((r) => r.origin)).toEqual(["direct"]);
    } finally {
      await runtime.shutdown();
    }
  });
});
