/**
 * The direct-tool registrar against the parts of Pi's API it uses (the real
 * Pi runs it in apps/e2e): what it registers for a plan, that an unchanged
 * plan registers nothing again (prompt-cache stability), freezing, retiring
 * a tool a server dropped, and waking `"search"` tools.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { DirectTool, DirectToolPlan } from "@pi-mcp-adapter/runtime/startup";
import { describe, expect, it } from "vitest";
import { RunningRows, type RunningUpdate } from "../../src/pi/render/running-rows.js";
import { DirectToolRegistrar } from "../../src/pi/tools/direct-tools.js";

interface Registered {
  name: string;
  exposure?: string;
  namespace?: { name: string; aliases?: string[]; instructions?: string };
  annotations?: Record<string, boolean>;
  execute(...args: unknown[]): Promise<unknown>;
}

/** Records registrations and keeps an active set the way Pi does (new direct tools become active). */
function recordingPi() {
  const registered: Registered[] = [];
  let active = ["read", "bash", "mcp"];
  const pi = {
    registerTool: (tool: Registered) => {
      registered.push(tool);
      if (tool.exposure !== "deferred" && !active.includes(tool.name)) active.push(tool.name);
    },
    getActiveTools: () => [...active],
    setActiveTools: (names: string[]) => {
      active = [...names];
    },
    getAllTools: () => registered.map((t) => ({ name: t.name })),
  } as unknown as ExtensionAPI;
  return { pi, registered, active: () => active };
}

const tool = (server: string, name: string, extra: Partial<ToolMetadata> = {}): ToolMetadata => ({
  server,
  name,
  prefixedName: `${server}_${name}`,
  description: `Does ${name}`,
  inputSchema: { type: "object", properties: {} },
  kind: "tool",
  ...extra,
});
const direct = (t: ToolMetadata, exposure: DirectTool["exposure"] = "direct"): DirectTool => ({
  name: t.prefixedName,
  exposure,
  tool: t,
});
const plan = (...tools: DirectTool[]): DirectToolPlan => ({ tools, problems: [] });
const noRuntime = () => Promise.reject(new Error("no runtime in this test"));

describe("DirectToolRegistrar", () => {
  it("registers each tool once, with exposure, namespace and annotations, and re-registers only what changed", () => {
    const { pi, registered } = recordingPi();
    const registrar = new DirectToolRegistrar(pi, {
      runtimeFor: noRuntime,
      instructions: (server) => (server === "docs" ? "Search the docs first. Then read pages." : undefined),
    });
    const search = tool("docs", "search", { annotations: { readOnlyHint: true, title: "Search" } });
    registrar.sync(plan(direct(search), direct(tool("docs", "read"), "search")));
    expect(registered.map((t) => [t.name, t.exposure])).toEqual([
      ["docs_search", "direct"],
      ["docs_read", "deferred"],
    ]);
    expect(registered[0]).toMatchObject({
      namespace: {
        name: "mcp__docs",
        aliases: ["docs"],
        description: "Search the docs first.",
        instructions: "Search the docs first. Then read pages.",
      },
      annotations: { readOnlyHint: true },
    });
    registrar.sync(plan(direct(search), direct(tool("docs", "read"), "search")));
    expect(registered).toHaveLength(2);
    registrar.sync(
      plan(direct({ ...search, description: "Search better" }), direct(tool("docs", "read"), "search")),
    );
    expect(registered.map((t) => t.name)).toEqual(["docs_search", "docs_read", "docs_search"]);
  });

  it("retires a dropped tool from the active set, and its call says the server no longer offers it", async () => {
    const { pi, registered, active } = recordingPi();
    const registrar = new DirectToolRegistrar(pi, { runtimeFor: noRuntime });
    registrar.sessionStarted([]);
    registrar.sync(plan(direct(tool("farm", "grow")), direct(tool("farm", "harvest"))));
    expect(active()).toEqual(["read", "bash", "mcp", "farm_grow", "farm_harvest"]);
    registrar.sync(plan(direct(tool("farm", "grow"))));
    expect(active()).toEqual(["read", "bash", "mcp", "farm_grow"]);
    await expect(registered[1]!.execute("id", {}, undefined, undefined, {})).rejects.toThrow(
      'MCP server "farm" no longer offers the tool "farm_harvest"',
    );
  });

  it("a running direct call draws its progress in its own row, by its server and the tool's own name", async () => {
    const { pi, registered } = recordingPi();
    const rows = new RunningRows();
    const runtime = {
      callDirect: async () => {
        rows.progress("farm", "grow", "1/2 · watering");
        return { content: [{ type: "text", text: "grown" }], details: {} };
      },
    };
    const registrar = new DirectToolRegistrar(pi, {
      runtimeFor: async () => runtime as never,
      running: (target, update, _ctx, call) =>
        rows.during(target, update as (partial: RunningUpdate) => void, call),
    });
    registrar.sessionStarted([]);
    registrar.sync(plan(direct(tool("farm", "grow"))));
    const updates: RunningUpdate[] = [];
    const result = await registered[0]!.execute(
      "id",
      {},
      undefined,
      (u: RunningUpdate) => updates.push(u),
      {},
    );
    expect(result).toMatchObject({ content: [{ type: "text", text: "grown" }] });
    expect(updates.map((u) => u.details.running.text)).toEqual([undefined, "1/2 · watering"]);
  });

  it("frozen: tools of servers already synced stay as they were; a server seen for the first time registers", () => {
    const { pi, registered } = recordingPi();
    const registrar = new DirectToolRegistrar(pi, { runtimeFor: noRuntime });
    registrar.sync(plan(direct(tool("farm", "grow"))));
    registrar.freeze();
    registrar.sync(
      plan(direct(tool("farm", "grow")), direct(tool("farm", "harvest")), direct(tool("late", "x"))),
    );
    expect(registered.map((t) => t.name)).toEqual(["farm_grow", "late_x"]);
    expect(registrar.names).toEqual(["farm_grow", "late_x"]);
  });

  it('"search" tools leave the active set at session start (Pi 0.7x activates them) until activated', () => {
    const { pi, active } = recordingPi();
    const registrar = new DirectToolRegistrar(pi, { runtimeFor: noRuntime });
    // Pi 0.7x ignores `exposure`: model it by a registration that activates everything.
    registrar.sync(plan(direct(tool("docs", "read"), "search")));
    pi.setActiveTools([...active(), "docs_read"]);
    registrar.sessionStarted([]);
    expect(active()).toEqual(["read", "bash", "mcp"]);
    registrar.activate(["docs_read", "unknown"]);
    expect(active()).toEqual(["read", "bash", "mcp", "docs_read"]);
  });

  it('"search" tools follow the session: recorded once when woken, restored at start, per branch, fresh in a new session', () => {
    const { pi, active } = recordingPi();
    const recorded: string[][] = [];
    const registrar = new DirectToolRegistrar(pi, {
      runtimeFor: noRuntime,
      activated: (names) => recorded.push([...names]),
    });
    registrar.sync(plan(direct(tool("docs", "read"), "search"), direct(tool("docs", "list"), "search")));
    pi.setActiveTools([...active(), "docs_read", "docs_list"]);
    // A continued session whose branch activated docs_read.
    registrar.sessionStarted(["docs_read"]);
    expect(active()).toEqual(["read", "bash", "mcp", "docs_read"]);
    registrar.activate(["docs_read", "docs_list", "docs_list"]);
    registrar.activate(["docs_list"]);
    expect(recorded).toEqual([["docs_list"]]);
    expect(active()).toEqual(["read", "bash", "mcp", "docs_read", "docs_list"]);
    // /tree to a branch that activated nothing, then a new session.
    registrar.branchChanged([]);
    expect(active()).toEqual(["read", "bash", "mcp"]);
    registrar.branchChanged(["docs_list"]);
    expect(active()).toEqual(["read", "bash", "mcp", "docs_list"]);
    registrar.sessionStarted([]);
    expect(active()).toEqual(["read", "bash", "mcp"]);
  });

  it("Pi 1.x: a deferred tool Pi loaded itself (tool_search, its transcript) stays active", () => {
    const { pi, registered, active } = recordingPi();
    // Pi 1.x reports each tool's exposure.
    (pi as { getAllTools: () => unknown[] }).getAllTools = () =>
      registered.map((t) => ({ name: t.name, exposure: t.exposure }));
    const registrar = new DirectToolRegistrar(pi, { runtimeFor: noRuntime });
    registrar.sync(plan(direct(tool("docs", "read"), "search"), direct(tool("docs", "list"), "search")));
    registrar.sessionStarted([]);
    expect(active()).toEqual(["read", "bash", "mcp"]);
    // Pi's tool_search loads docs_read; a later listing change must not unload it.
    pi.setActiveTools([...active(), "docs_read"]);
    registrar.sync(plan(direct(tool("docs", "read"), "search"), direct(tool("docs", "list"), "search")));
    expect(active()).toEqual(["read", "bash", "mcp", "docs_read"]);
  });
});
