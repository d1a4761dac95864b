import { EventEmitter } from "node:events";
import { MCP_TOOL_APPROVAL_REQUEST_EVENT, type ToolApprovalRequest } from "@pi-mcp-adapter/approval";
import { afterEach, describe, expect, it } from "vitest";
import type { CallSettings } from "../../src/calls/call-pipeline.js";
import { AdapterRuntime, type CallRecord, headlessHost } from "../../src/index.js";
import { internalsOf } from "../../src/runtime-internals.js";
import { connectWith, everythingStdio } from "../definitions.js";

const everything = everythingStdio;

let open: AdapterRuntime | undefined;
afterEach(async () => {
  await open?.shutdown();
  open = undefined;
});

function runtime(calls: CallSettings = {}, bus?: EventEmitter) {
  open = new AdapterRuntime({
    servers: [everything],
    connect: connectWith(),
    calls,
    host: bus ? { ...headlessHost(), events: { emit: (c, d) => bus.emit(c, d) } } : headlessHost(),
  });
  return open;
}

const textOf = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((c) => c.text ?? "").join("\n");

describe("the call pipeline against server-everything over stdio", () => {
  it("reads a resource by URI, through the output guard", async () => {
    const r = runtime();
    const result = await r.run({
      target: {
        kind: "resource",
        server: "everything",
        uri: "demo://resource/static/document/architecture.md",
      },
      args: {},
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain(
      "[resource demo://resource/static/document/architecture.md (text/markdown)]\n# Everything Server",
    );
    expect(result.details).toMatchObject({
      server: "everything",
      name: "demo://resource/static/document/architecture.md",
      kind: "resource",
    });
  });

  it("reads a resource template expanded from args, encoding the value", async () => {
    const r = runtime();
    const target = {
      kind: "resource-template" as const,
      server: "everything",
      uriTemplate: "demo://resource/dynamic/text/{resourceId}",
    };
    const result = await r.run({ target, args: { resourceId: 7 } });
    expect(textOf(result)).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/7 \(text\/plain\)\]\nResource 7: /,
    );
    expect(result.details).toMatchObject({
      kind: "resource-template",
      name: "demo://resource/dynamic/text/7",
    });
    await expect(r.run({ target, args: {} })).rejects.toThrow(
      "URI template demo://resource/dynamic/text/{resourceId} needs args.resourceId",
    );
  });

  it("gets a prompt with its arguments; messages come back as content with their role", async () => {
    const r = runtime();
    const result = await r.run({
      target: { kind: "prompt", server: "everything", name: "args-prompt" },
      args: { city: "Lyon", state: "Rhône" },
    });
    expect(result.content).toEqual([{ type: "text", text: "What's weather in Lyon, Rhône?" }]);
    expect(result.details).toMatchObject({ kind: "prompt", name: "args-prompt" });
  });

  it("a server error on a prompt reaches the host as an error naming the server and the prompt", async () => {
    const r = runtime();
    await expect(
      r.run({
        target: { kind: "prompt", server: "everything", name: "resource-prompt" },
        args: { resourceType: "Neither", resourceId: 1 },
      }),
    ).rejects.toThrow(/everything: prompts\/get resource-prompt failed: .*Invalid resourceType: Neither/);
  });

  it("approval applies to reads and prompts: a headless host with approveTools true refuses both", async () => {
    const r = runtime({ approveTools: true });
    const observed: CallRecord[] = [];
    r.observe((record) => observed.push(record));
    const read = await r.run({
      target: { kind: "resource", server: "everything", uri: "demo://resource/static/document/features.md" },
      args: {},
    });
    const prompt = await r.run({
      target: { kind: "prompt", server: "everything", name: "simple-prompt" },
      args: {},
    });
    for (const result of [read, prompt]) {
      expect(result.isError).toBe(true);
      expect(JSON.parse(textOf(result))).toMatchObject({ error: "approval_required", server: "everything" });
    }
    expect(observed.map((o) => [o.kind, o.outcome, o.errorCode])).toEqual([
      ["resource", "refused", "approval_required"],
      ["prompt", "refused", "approval_required"],
    ]);
    // Refused before connecting: the server was never started.
    expect(r.listings.summaries()[0]?.state).toBe("not-connected");
  });

  it("brokers see resource and prompt origins; the default destructive policy lets reads through", async () => {
    const bus = new EventEmitter();
    const seen: string[] = [];
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (request: ToolApprovalRequest) => {
      seen.push(`${request.origin}:${request.originalToolName}`);
    });
    const r = runtime({ approveTools: "destructive" }, bus);
    const read = await r.run({
      target: {
        kind: "resource-template",
        server: "everything",
        uriTemplate: "demo://resource/dynamic/text/{id}",
      },
      args: { id: 2 },
    });
    const prompt = await r.run({
      target: { kind: "prompt", server: "everything", name: "simple-prompt" },
      args: {},
    });
    expect(read.isError).toBe(false);
    expect(prompt.isError).toBe(false);
    expect(seen).toEqual(["resource:demo://resource/dynamic/text/2", "prompt:simple-prompt"]);
  });

  it("observers see every call (server, name, kind, origin, args and result size, duration, outcome); a throwing one is counted", async () => {
    const r = runtime();
    const records: CallRecord[] = [];
    r.observe(() => {
      throw new Error("observer bug");
    });
    r.observe((record) => records.push(record));
    const stop = r.observe(async () => {
      throw new Error("async observer bug");
    });
    const echo = await r.call("everything_echo", { message: "hi" }, { origin: "direct" });
    expect(textOf(echo)).toContain("hi");
    await r
      .run({ target: { kind: "prompt", server: "everything", name: "no-such-prompt" }, args: {} })
      .catch(() => {});
    stop();
    await r.run({ target: { kind: "prompt", server: "everything", name: "simple-prompt" }, args: {} });
    expect(records.map(({ durationMs: _d, ...rest }) => rest)).toEqual([
      {
        server: "everything",
        name: "echo",
        kind: "tool",
        origin: "direct",
        argsBytes: '{"message":"hi"}'.length,
        resultBytes: expect.any(Number),
        outcome: "ok",
      },
      {
        server: "everything",
        name: "no-such-prompt",
        kind: "prompt",
        origin: "proxy",
        argsBytes: 2,
        outcome: "failed",
        errorCode: "request_failed",
      },
      {
        server: "everything",
        name: "simple-prompt",
        kind: "prompt",
        origin: "proxy",
        argsBytes: 2,
        resultBytes: expect.any(Number),
        outcome: "ok",
      },
    ]);
    expect(records[0]?.resultBytes).toBeGreaterThan(
      '{"content":[{"type":"text","text":"Echo: hi"}]}'.length - 5,
    );
    expect(records.every((record) => record.durationMs >= 0 && Object.isFrozen(record))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(internalsOf(r).calls.observerFailures).toBe(5); // the sync one 3 times, the async one twice
  });

  it("refuses a target on a server that is not configured", async () => {
    const r = runtime();
    await expect(
      r.run({ target: { kind: "resource", server: "nope", uri: "demo://x" }, args: {} }),
    ).rejects.toThrow('Unknown MCP server "nope" (configured: everything)');
  });
});
