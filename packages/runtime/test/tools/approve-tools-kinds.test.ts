/**
 * `approveTools` globs for each kind of call, against server-everything
 * over stdio, in a headless session (a gated call fails closed with
 * `approval_required`): a tool by name, a resource by URI (read by URI and
 * by its catalog name), a resource template by the URI it expands to, and
 * a prompt by name. Each has an ungated neighbour that runs, as a control.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallResult } from "../../src/calls/call-result.js";
import { AdapterRuntime, headlessHost } from "../../src/index.js";
import { connectWith, everythingStdio } from "../definitions.js";

const everything = everythingStdio;

let runtime: AdapterRuntime;
beforeAll(() => {
  runtime = new AdapterRuntime({
    servers: [everything],
    connect: connectWith(),
    host: headlessHost(),
    calls: {
      approveTools: [
        "echo",
        "demo://resource/static/document/architecture.md",
        "demo://resource/dynamic/text/*",
        "simple-prompt",
      ],
    },
  });
});
afterAll(() => runtime.shutdown());

function refused(result: CallResult): boolean {
  if (!result.isError) return false;
  const text = result.content.map((c) => (c as { text?: string }).text ?? "").join("");
  return JSON.parse(text).error === "approval_required";
}

describe("approveTools globs, per kind of call", () => {
  it("tool: matched by name", async () => {
    expect(refused(await runtime.call("everything_echo", { message: "hi" }))).toBe(true);
    expect(refused(await runtime.call("everything_get-sum", { a: 1, b: 2 }))).toBe(false);
  });

  it("resource: matched by its URI, read by URI or by its catalog name", async () => {
    const read = (uri: string) =>
      runtime.run({ target: { kind: "resource", server: "everything", uri }, args: {} });
    expect(refused(await read("demo://resource/static/document/architecture.md"))).toBe(true);
    expect(refused(await read("demo://resource/static/document/features.md"))).toBe(false);
    const { tools } = await runtime.catalog.view("everything");
    const entry = tools.find((t) => t.uri === "demo://resource/static/document/architecture.md");
    const control = tools.find((t) => t.uri === "demo://resource/static/document/features.md");
    expect(entry?.kind).toBe("resource");
    expect(refused(await runtime.call(entry!.prefixedName, {}))).toBe(true);
    expect(refused(await runtime.call(control!.prefixedName, {}))).toBe(false);
  });

  it("resource template: matched by the URI it expands to, read by template or by catalog name", async () => {
    const target = {
      kind: "resource-template" as const,
      server: "everything",
      uriTemplate: "demo://resource/dynamic/text/{resourceId}",
    };
    expect(refused(await runtime.run({ target, args: { resourceId: 3 } }))).toBe(true);
    const { tools } = await runtime.catalog.view("everything");
    const entry = tools.find((t) => t.uriTemplate === target.uriTemplate);
    expect(refused(await runtime.call(entry!.prefixedName, { resourceId: "3" }))).toBe(true);
    const blob = tools.find((t) => t.uriTemplate?.startsWith("demo://resource/dynamic/blob/"));
    expect(refused(await runtime.call(blob!.prefixedName, { resourceId: "3" }))).toBe(false);
  });

  it("prompt: matched by name", async () => {
    const get = (name: string, args: Record<string, unknown> = {}) =>
      runtime.run({ target: { kind: "prompt", server: "everything", name }, args });
    expect(refused(await get("simple-prompt"))).toBe(true);
    expect(refused(await runtime.call("everything_simple-prompt", {}))).toBe(true);
    expect(refused(await get("args-prompt", { city: "Paris" }))).toBe(false);
  });
});
