import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import {
  type ApprovalCall,
  ApprovalGate,
  formatApprovalRefusal,
  MCP_TOOL_APPROVAL_REQUEST_EVENT,
  needsApproval,
  type SessionGrant,
  selectApprovalDialog,
  type ToolApprovalRequest,
} from "../src/index.js";

const call = (tool: string, scope = { definition: "def-1", fingerprint: `fp-${tool}` }): ApprovalCall => ({
  serverName: "fs",
  tool: { name: tool, prefixedName: `fs_${tool}` },
  args: { path: "/tmp/x" },
  origin: "proxy",
  scope,
});

function scripted(answers: (string | undefined)[]) {
  const asked: string[] = [];
  const dialog = selectApprovalDialog(async (title) => {
    asked.push(title);
    return answers.shift();
  });
  return { dialog, asked };
}

describe('approveTools "writes"', () => {
  const policy = { global: "writes" as const };
  const tool = (annotations?: Record<string, boolean>) => ({
    name: "t",
    prefixedName: "s_t",
    ...(annotations ? { annotations } : {}),
  });

  it("asks for every tool not annotated readOnlyHint: true, and lets read-only ones run", () => {
    expect(needsApproval(tool(), policy)).toBe(true);
    expect(needsApproval(tool({ readOnlyHint: false, destructiveHint: false }), policy)).toBe(true);
    expect(needsApproval(tool({ readOnlyHint: true }), policy)).toBe(false);
  });
});

describe("approveTools globs on resource URIs", () => {
  it("match the URI a read addresses, besides the entry's names", () => {
    const resource = { name: "secrets", prefixedName: "vault_secrets", uri: "vault://secrets/prod" };
    expect(needsApproval(resource, { global: ["vault://secrets/*"] })).toBe(true);
    expect(needsApproval(resource, { server: ["vault://secrets/*"] })).toBe(true);
    expect(needsApproval(resource, { global: ["vault://public/*"] })).toBe(false);
  });
});

describe("Allow this server for the session", () => {
  it("allows every tool of the server without asking again, and tells the host to store the grant", async () => {
    const { dialog, asked } = scripted(["Allow this server for the session"]);
    const stored: SessionGrant[] = [];
    const gate = new ApprovalGate({ approveTools: true, dialog, onGrant: (g) => stored.push(g) });
    expect(await gate.check(call("delete_file"))).toEqual({ allowed: true, via: "dialog" });
    expect(await gate.check(call("write_file"))).toEqual({ allowed: true, via: "session" });
    expect(asked).toHaveLength(1);
    expect(stored).toEqual([{ server: "fs", definition: "def-1" }]);
  });

  it("no longer covers the server once its definition changed", async () => {
    const { dialog, asked } = scripted(["Allow this server for the session", "Deny"]);
    const gate = new ApprovalGate({ approveTools: true, dialog });
    await gate.check(call("delete_file"));
    const edited = await gate.check(
      call("delete_file", { definition: "def-2", fingerprint: "fp-delete_file" }),
    );
    expect(edited).toMatchObject({ allowed: false, code: "denied" });
    expect(asked).toHaveLength(2);
  });
});

describe("session grants restored from a stored session", () => {
  it("covers calls while definition and fingerprint match, and asks again when either changed", async () => {
    const { dialog, asked } = scripted(["Deny", "Deny"]);
    const gate = new ApprovalGate({ approveTools: true, dialog });
    gate.restoreGrants([
      { server: "fs", tool: "delete_file", definition: "def-1", fingerprint: "fp-delete_file" },
      { server: "fs", tool: 5 },
      null,
    ]);
    expect(gate.sessionGrants()).toHaveLength(1);
    expect(await gate.check(call("delete_file"))).toEqual({ allowed: true, via: "session" });
    expect(
      await gate.check(call("delete_file", { definition: "def-1", fingerprint: "fp-new" })),
    ).toMatchObject({
      allowed: false,
    });
    expect(
      await gate.check(call("delete_file", { definition: "def-2", fingerprint: "fp-delete_file" })),
    ).toMatchObject({ allowed: false });
    expect(asked).toHaveLength(2);
  });
});

describe("a tool that changed since it was accepted", () => {
  const change = {
    summary: 'description: "Sends the report" → "Sends the report and ~/.ssh"',
    lines: ["description: …report[+ and ~/.ssh+]", "added parameter: path"],
    blocking: true,
    acceptHint: "pi-mcp-adapter trust-tools fs",
  };

  it("fails closed without a UI, naming the change and the command that accepts it", async () => {
    const gate = new ApprovalGate({});
    const changed = { ...call("send"), change };
    const outcome = await gate.check(changed);
    expect(outcome).toMatchObject({ allowed: false, via: "headless", code: "tool_changed" });
    if (outcome.allowed) throw new Error("unreachable");
    expect(outcome.message).toBe(
      `MCP tool fs_send (server fs) was not called: it changed since it was accepted (${change.summary}), and this session has no UI to ask. Ask the user to review and accept the change: pi-mcp-adapter trust-tools fs.`,
    );
    expect(JSON.parse(formatApprovalRefusal(outcome, changed))).toMatchObject({ error: "tool_changed" });
  });

  it("asks through the dialog even when a grant would cover it, shows the diff, and accepts the change on allow", async () => {
    const { dialog, asked } = scripted(["Allow this server for the session", "Allow once"]);
    const gate = new ApprovalGate({ approveTools: true, dialog });
    await gate.check(call("other"));
    const outcome = await gate.check({ ...call("send"), change });
    expect(outcome).toEqual({ allowed: true, via: "dialog", acceptedChange: true });
    expect(asked[1]).toBe(
      'Allow MCP tool fs_send (server fs, tool send)?\nThis tool changed since you accepted it:\n  description: …report[+ and ~/.ssh+]\n  added parameter: path\nAllowing accepts the change.\nArguments: {"path":"/tmp/x"}',
    );
  });

  it("runs without asking when it does not block (pinTools warn, or a proxy-only tool)", async () => {
    const gate = new ApprovalGate({});
    expect(await gate.check({ ...call("send"), change: { ...change, blocking: false } })).toEqual({
      allowed: true,
      via: "policy",
    });
  });

  it("tells brokers the tool's annotations and that its fingerprint changed", async () => {
    const emitter = new EventEmitter();
    const seen: ToolApprovalRequest[] = [];
    emitter.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (request: ToolApprovalRequest) => seen.push(request));
    const gate = new ApprovalGate({ events: { emit: (c, d) => emitter.emit(c, d) } });
    const annotated = {
      ...call("send"),
      tool: { name: "send", prefixedName: "fs_send", annotations: { readOnlyHint: true } },
    };
    await gate.check(annotated);
    await gate.check({ ...annotated, change: { ...change, blocking: false } });
    expect(seen.map((r) => [r.annotations, r.fingerprintChanged])).toEqual([
      [{ readOnlyHint: true }, false],
      [{ readOnlyHint: true }, true],
    ]);
  });
});

describe("a call the user must approve whatever the policy (an MCP skill's load)", () => {
  const skill = (fingerprint: string): ApprovalCall => ({
    ...call("skill://pdf/SKILL.md", { definition: "def-1", fingerprint }),
    origin: "skill",
    explicit: { reason: "loading the MCP skill needs the user's approval; ask the user to run /skill:pdf" },
  });

  it("asks even with approveTools off, and a session grant holds only for the same files", async () => {
    const { dialog, asked } = scripted(["Allow for session", "Deny"]);
    const gate = new ApprovalGate({ approveTools: false, dialog });
    expect(await gate.check(skill("files-1"))).toEqual({ allowed: true, via: "dialog" });
    expect(await gate.check(skill("files-1"))).toEqual({ allowed: true, via: "session" });
    expect(await gate.check(skill("files-2"))).toMatchObject({ allowed: false, code: "denied" });
    expect(asked).toHaveLength(2);
  });

  it("is refused without a UI, with the reason the call gave", async () => {
    const gate = new ApprovalGate({ approveTools: false });
    const outcome = await gate.check(skill("files-1"));
    expect(outcome).toMatchObject({ allowed: false, via: "headless", code: "approval_required" });
    expect(outcome.allowed ? "" : outcome.message).toMatch(/ask the user to run \/skill:pdf/);
  });

  it("takes a grant given outside the dialog (a command) and tells the host once", async () => {
    const stored: SessionGrant[] = [];
    const { dialog, asked } = scripted([]);
    const gate = new ApprovalGate({ dialog, onGrant: (grant) => stored.push(grant) });
    const grant = { server: "fs", tool: "skill://pdf/SKILL.md", definition: "def-1", fingerprint: "files-1" };
    gate.grant(grant);
    gate.grant({ ...grant });
    expect(stored).toEqual([grant]);
    expect(await gate.check(skill("files-1"))).toEqual({ allowed: true, via: "session" });
    expect(asked).toEqual([]);
  });

  it("names the skill and the files the approval binds in the dialog and to brokers, not the tool wording", async () => {
    const { dialog, asked } = scripted(["Deny"]);
    const files = [
      { path: "SKILL.md", size: 120 },
      { path: "references/\u001b[2JFORMS.md", size: 30 },
    ];
    const events = new EventEmitter();
    const offered: ToolApprovalRequest[] = [];
    events.on(MCP_TOOL_APPROVAL_REQUEST_EVENT, (request: ToolApprovalRequest) => offered.push(request));
    const subject = { name: "fs-pdf", uri: "skill://pdf/SKILL.md", files };
    await new ApprovalGate({ dialog, events }).check({ ...skill("files-1"), skill: subject });
    expect(offered[0]?.skill).toEqual(subject);
    expect(asked[0]).toBe(
      [
        "Load MCP skill fs-pdf from server fs (skill://pdf/SKILL.md)?",
        "Its content is written by the server, not by you; it reaches the model as untrusted.",
        "Allowing covers these 2 files (150 bytes) as listed; a changed file asks again:",
        "  SKILL.md (120 bytes)",
        "  references/?[2JFORMS.md (30 bytes)",
      ].join("\n"),
    );
  });
});
