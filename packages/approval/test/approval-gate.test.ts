import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import {
  type ApprovalDialog,
  type ApprovalEventBus,
  ApprovalGate,
  formatApprovalRefusal,
  MCP_TOOL_APPROVAL_REQUEST_EVENT,
  selectApprovalDialog,
  type ToolApprovalRequest,
} from "../src/index.js";

/** A real event bus, shaped like Pi's: listeners run synchronously inside emit. */
function eventBus(): ApprovalEventBus & { on(channel: string, fn: (data: unknown) => void): void } {
  const emitter = new EventEmitter();
  return {
    emit: (channel, data) => emitter.emit(channel, data),
    on: (channel, fn) => emitter.on(channel, fn),
  };
}

const deleteCall = (args: Record<string, unknown> = { path: "/tmp/x" }) => ({
  serverName: "fs",
  tool: { name: "delete_file", prefixedName: "fs_delete_file" },
  args,
  origin: "proxy" as const,
});

/** A dialog that answers from a list and records what it was asked. */
function scriptedDialog(answers: (string | undefined)[]) {
  const asked: string[] = [];
  const dialog: ApprovalDialog = selectApprovalDialog(async (title, options) => {
    asked.push(title);
    expect(options).toEqual(["Allow once", "Allow for session", "Allow this server for the session", "Deny"]);
    return answers.shift();
  });
  return { dialog, asked };
}

describe("ApprovalGate: policy and dialog", () => {
  const serverApproveTools = () => ["delete_*"];

  it("lets calls the policy does not gate through without asking", async () => {
    const { dialog, asked } = scriptedDialog([]);
    const gate = new ApprovalGate({ serverApproveTools, dialog });
    const read = { ...deleteCall(), tool: { name: "read_file", prefixedName: "fs_read_file" } };
    expect(await gate.check(read)).toEqual({ allowed: true, via: "policy" });
    expect(asked).toEqual([]);
  });

  it("Allow once asks again next time; Allow for session does not; Deny refuses", async () => {
    const { dialog, asked } = scriptedDialog(["Allow once", "Allow for session", "Deny"]);
    const gate = new ApprovalGate({ serverApproveTools, dialog });
    expect(await gate.check(deleteCall())).toEqual({ allowed: true, via: "dialog" });
    expect(await gate.check(deleteCall())).toEqual({ allowed: true, via: "dialog" });
    expect(await gate.check(deleteCall())).toEqual({ allowed: true, via: "session" });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toBe(
      'Allow MCP tool fs_delete_file (server fs, tool delete_file)?\nArguments: {"path":"/tmp/x"}',
    );

    gate.clearSession();
    const denied = await gate.check(deleteCall());
    expect(denied).toEqual({
      allowed: false,
      via: "dialog",
      code: "denied",
      message: "MCP tool fs_delete_file (server fs) was not called: the user denied it.",
    });
  });

  it("counts a dismissed dialog as a denial", async () => {
    const { dialog } = scriptedDialog([undefined]);
    const outcome = await new ApprovalGate({ serverApproveTools, dialog }).check(deleteCall());
    expect(outcome).toMatchObject({ allowed: false, code: "denied" });
  });

  it("fails closed without a UI, with an approval_required result a model can read", async () => {
    const gate = new ApprovalGate({ approveTools: ["fs_delete_*"] });
    const outcome = await gate.check(deleteCall());
    expect(outcome).toMatchObject({ allowed: false, via: "headless", code: "approval_required" });
    if (outcome.allowed) throw new Error("unreachable");
    expect(JSON.parse(formatApprovalRefusal(outcome, deleteCall()))).toEqual({
      error: "approval_required",
      server: "fs",
      tool: "delete_file",
      message: expect.stringContaining("this session has no UI to ask"),
    });
  });

  it("shows one dialog at a time, and a queued call finds the session approval", async () => {
    let release: (value: string) => void = () => {};
    let open = 0;
    let asked = 0;
    const dialog = selectApprovalDialog(() => {
      asked += 1;
      open += 1;
      expect(open).toBe(1);
      return new Promise<string>((resolve) => {
        release = (value) => {
          open -= 1;
          resolve(value);
        };
      });
    });
    const gate = new ApprovalGate({ serverApproveTools, dialog });
    const first = gate.check(deleteCall());
    const second = gate.check(deleteCall());
    await expect.poll(() => asked).toBe(1);
    release("Allow for session");
    expect(await first).toEqual({ allowed: true, via: "dialog" });
    expect(await second).toEqual({ allowed: true, via: "session" });
    expect(asked).toBe(1);
  });

  it("denies a call cancelled while its dialog is open", async () => {
    const controller = new AbortController();
    const dialog = selectApprovalDialog(
      (_t, _o, opts) =>
        new Promise((resolve) => opts?.signal?.addEventListener("abort", () => resolve(undefined))),
    );
    const gate = new ApprovalGate({ serverApproveTools, dialog });
    const pending = gate.check({ ...deleteCall(), signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ allowed: false, via: "cancelled", code: "denied" });
  });
});

describe("ApprovalGate: broker", () => {
  it("offers every uncached call on the bus, even when approveTools does not gate it", async () => {
    const bus = eventBus();
    const seen: ToolApprovalRequest[] = [];
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (data) => seen.push(data as ToolApprovalRequest));
    const gate = new ApprovalGate({ events: bus });
    const controller = new AbortController();
    expect(await gate.check({ ...deleteCall({ path: "/a" }), signal: controller.signal })).toEqual({
      allowed: true,
      via: "policy",
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      serverName: "fs",
      originalToolName: "delete_file",
      prefixedToolName: "fs_delete_file",
      args: { path: "/a" },
      origin: "proxy",
      signal: controller.signal,
    });
  });

  it("takes the first synchronous claim; later and late claims are refused", async () => {
    const bus = eventBus();
    const results: boolean[] = [];
    let late: ToolApprovalRequest | undefined;
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (data) => {
      const request = data as ToolApprovalRequest;
      results.push(request.claim(async () => "deny"));
      late = request;
    });
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (data) => {
      results.push((data as ToolApprovalRequest).claim(async () => "allow_once"));
    });
    const { dialog, asked } = scriptedDialog(["Allow once"]);
    const outcome = await new ApprovalGate({ events: bus, dialog, approveTools: true }).check(deleteCall());
    expect(results).toEqual([true, false]);
    expect(late?.claim(async () => "allow_once")).toBe(false);
    expect(outcome).toMatchObject({ allowed: false, via: "broker", code: "denied" });
    expect(asked).toEqual([]);
  });

  it("allow_for_session from the broker fills the same cache as the dialog", async () => {
    const bus = eventBus();
    let offered = 0;
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (data) => {
      offered += 1;
      (data as ToolApprovalRequest).claim(async () => "allow_for_session");
    });
    const gate = new ApprovalGate({ events: bus, approveTools: true });
    expect(await gate.check(deleteCall())).toEqual({ allowed: true, via: "broker" });
    expect(await gate.check(deleteCall())).toEqual({ allowed: true, via: "session" });
    expect(offered).toBe(1);
  });

  it("falls back to the policy on abstain or when nobody claims", async () => {
    const bus = eventBus();
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (data) => {
      (data as ToolApprovalRequest).claim(async () => "abstain");
    });
    const { dialog, asked } = scriptedDialog(["Deny"]);
    const outcome = await new ApprovalGate({ events: bus, dialog, approveTools: ["fs_*"] }).check(
      deleteCall(),
    );
    expect(asked).toHaveLength(1);
    expect(outcome).toMatchObject({ allowed: false, via: "dialog" });
    expect(await new ApprovalGate({ events: eventBus() }).check(deleteCall())).toEqual({
      allowed: true,
      via: "policy",
    });
  });

  it("denies when the claimed decider fails or answers nonsense", async () => {
    for (const decide of [
      async () => {
        throw new Error("policy service down");
      },
      async () => "yes please",
    ]) {
      const bus = eventBus();
      bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (data) => {
        (data as ToolApprovalRequest).claim(decide as () => Promise<"deny">);
      });
      const outcome = await new ApprovalGate({ events: bus }).check(deleteCall());
      expect(outcome).toMatchObject({ allowed: false, via: "broker", code: "denied" });
    }
  });

  it("gives listeners a frozen copy of the arguments", async () => {
    const bus = eventBus();
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (data) => {
      const request = data as ToolApprovalRequest;
      expect(() => {
        (request.args as Record<string, unknown>).path = "/etc";
      }).toThrow();
    });
    const args = { path: "/tmp/x" };
    await new ApprovalGate({ events: bus }).check(deleteCall(args));
    expect(args).toEqual({ path: "/tmp/x" });
  });
});

describe("ApprovalGate.attachHost", () => {
  it("sets the bus and the dialog later, and a missing dialog means headless", async () => {
    const gate = new ApprovalGate({ approveTools: true });
    const { dialog, asked } = scriptedDialog(["Allow once"]);
    const bus = eventBus();
    let offered = 0;
    bus.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, () => {
      offered += 1;
    });
    gate.attachHost({ events: bus, dialog });
    expect(await gate.check(deleteCall())).toEqual({ allowed: true, via: "dialog" });
    expect(asked).toHaveLength(1);
    expect(offered).toBe(1);
    gate.attachHost({ events: bus });
    expect(await gate.check(deleteCall())).toMatchObject({ allowed: false, code: "approval_required" });
  });
});
