import { EventEmitter } from "node:events";
import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { MCP_TOOL_APPROVAL_REQUEST_EVENT, type ToolApprovalRequest } from "@pi-mcp-adapter/approval";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { connectInMemory, createFixtureServer, type FixtureTool } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import type { CallSettings } from "../../src/calls/call-pipeline.js";
import { AdapterRuntime, type Host, headlessHost } from "../../src/index.js";
import { uiHost } from "../hosts.js";

const calls: string[] = [];
const tools: FixtureTool[] = [
  {
    name: "delete_file",
    handler: (args) => {
      calls.push(`delete ${String(args.path)}`);
      return { content: [{ type: "text", text: `deleted ${String(args.path)}` }] };
    },
  },
  { name: "dump", handler: () => ({ content: [{ type: "text", text: "line\n".repeat(50) }] }) },
  {
    name: "pdf",
    handler: () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "file:///r.pdf",
            mimeType: "application/pdf",
            blob: Buffer.from("%PDF").toString("base64"),
          },
        },
      ],
    }),
  },
];

function runtime(
  calls: CallSettings,
  approveTools?: ServerDefinition["approveTools"],
  extra: Partial<ServerDefinition> = {},
  host?: Host,
) {
  const definition: ServerDefinition = {
    name: "fs",
    transport: "stdio",
    command: "unused",
    lifecycle: "lazy",
    protocol: "legacy",
    source: { file: "/p/.mcp.json", key: "mcpServers.fs" },
    ...(approveTools !== undefined ? { approveTools } : {}),
    ...extra,
  };
  return new AdapterRuntime({
    servers: [definition],
    calls,
    host,
    connect: async (d) =>
      connectServer(d, { transport: await connectInMemory(createFixtureServer({ tools })) }),
  });
}

describe("AdapterRuntime.call: approval", () => {
  it("a host without a UI is never asked, even if it has dialogs: the call fails closed", async () => {
    const asked: string[] = [];
    const host: Host = {
      ...uiHost(async (title) => {
        asked.push(title);
        return "Allow once";
      }),
      hasUI: false,
    };
    const r = runtime({}, ["delete_*"], {}, host);
    calls.length = 0;
    const result = await r.call("fs_delete_file", { path: "/a" });
    expect(result.details).toMatchObject({ approval: "approval_required", server: "fs", kind: "tool" });
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
    await r.shutdown();
  });

  it("fails closed without a UI and never reaches the server", async () => {
    const r = runtime({}, ["delete_*"]);
    calls.length = 0;
    const result = await r.call("fs_delete_file", { path: "/a" });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({
      error: "approval_required",
      tool: "delete_file",
    });
    expect(calls).toEqual([]);
    expect((await r.call("fs_dump", {})).isError).toBe(false);
    await r.shutdown();
  });

  it("asks through the dialog; Allow for session lets the next call through without asking", async () => {
    const asked: string[] = [];
    const answers = ["Deny", "Allow for session"];
    const host = uiHost(async (title) => {
      asked.push(title);
      return answers.shift();
    });
    const r = runtime({ approveTools: ["fs_*"] }, ["delete_*"], {}, host);
    calls.length = 0;
    expect((await r.call("fs_delete_file", { path: "/a" })).isError).toBe(true);
    expect((await r.call("fs_delete_file", { path: "/b" })).content).toEqual([
      { type: "text", text: "deleted /b" },
    ]);
    expect((await r.call("fs_delete_file", { path: "/c" })).isError).toBe(false);
    expect((await r.call("fs_dump", {})).isError).toBe(false); // the server's setting wins over the global one
    expect(asked).toHaveLength(2);
    expect(calls).toEqual(["delete /b", "delete /c"]);
    await r.shutdown();
  });

  it("excludeTools still removes a tool entirely: no dialog, no call, an unknown-tool error", async () => {
    const asked: string[] = [];
    const host = uiHost(async (title) => {
      asked.push(title);
      return "Allow once";
    });
    const r = runtime({}, ["delete_*"], { excludeTools: ["delete_*"] }, host);
    calls.length = 0;
    await expect(r.call("fs_delete_file", { path: "/a" })).rejects.toMatchObject({ code: "unknown_tool" });
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
    await r.shutdown();
  });

  it("offers the call to a broker on the host's bus, which can deny it", async () => {
    const bus = new EventEmitter();
    const seen: string[] = [];
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (request: ToolApprovalRequest) => {
      seen.push(`${request.origin}:${request.serverName}/${request.originalToolName}`);
      request.claim(async () => "deny");
    });
    const r = runtime({}, undefined, {}, { ...headlessHost(), events: { emit: (c, d) => bus.emit(c, d) } });
    const result = await r.call("fs_dump", {});
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('"error":"denied"');
    expect(seen).toEqual(["proxy:fs/dump"]);
    await r.shutdown();
  });
});

describe("AdapterRuntime.call: output guard", () => {
  it("caps a long result, spills it, and bounds details when asked", async () => {
    const r = runtime({ outputGuard: { maxLines: 10, detailsMaxBytes: 100 } });
    const result = await r.call("fs_dump", {}, { details: true });
    expect((result.content[0] as { text: string }).text).toBe("line\n".repeat(10).slice(0, -1));
    const notice = (result.content[1] as { text: string }).text;
    const file = /saved to (\S+) /.exec(notice)?.[1] ?? "";
    expect(await readFile(file, "utf8")).toBe("line\n".repeat(50));
    expect(result.details).toMatchObject({ mcpResultSummary: { contentTypes: { text: 1 } } });
    await r.shutdown();
    // Spill files outlive the session by design; this test removes its own.
    await rm(path.dirname(file), { recursive: true, force: true });
  });

  it("removes binary result files when the runtime shuts down", async () => {
    const r = runtime({});
    const result = await r.call("fs_pdf", {});
    const file = /saved to (\S+)\]/.exec((result.content[0] as { text: string }).text)?.[1] ?? "";
    expect(await readFile(file, "utf8")).toBe("%PDF");
    await r.shutdown();
    await expect(stat(file)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("MCP_OUTPUT_GUARD=0 turns capping off", async () => {
    const r = runtime({ env: { MCP_OUTPUT_GUARD: "0" }, outputGuard: { maxLines: 10 } });
    const result = await r.call("fs_dump", {});
    expect(result.content).toEqual([{ type: "text", text: "line\n".repeat(50) }]);
    await r.shutdown();
  });
});
