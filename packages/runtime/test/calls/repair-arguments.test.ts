/**
 * Object and array arguments sent as JSON text are parsed once, the schema
 * deciding: the rules on their own, then through a real stdio fixture server
 * whose `inspect` tool echoes what it received, by the proxy and the direct
 * path (which Pi's own schema check hides in Pi; other hosts reach it), with
 * `strictDirectToolArguments` judging the repaired arguments.
 */
import { writeFile } from "node:fs/promises";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repairJsonStringArguments } from "../../src/calls/repair-arguments.js";
import { AdapterRuntime, headlessHost, runProxyRequest } from "../../src/index.js";
import { connectWith } from "../definitions.js";

const schema = {
  type: "object",
  properties: {
    filter: { type: "object" },
    ids: { type: "array", items: { type: "number" } },
    label: { type: "string" },
    either: { type: ["string", "object"] },
    maybe: { type: ["object", "null"] },
  },
};

describe("repairJsonStringArguments", () => {
  it("parses a property the schema wants as object or array, once, and names it", () => {
    const { args, repaired } = repairJsonStringArguments(schema, {
      filter: '{"state":"open","inner":"{\\"a\\":1}"}',
      ids: " [1, 2] ",
      maybe: '{"x":1}',
    });
    expect(args).toEqual({ filter: { state: "open", inner: '{"a":1}' }, ids: [1, 2], maybe: { x: 1 } });
    expect(repaired).toEqual([
      { name: "filter", kind: "object" },
      { name: "ids", kind: "array" },
      { name: "maybe", kind: "object" },
    ]);
  });

  it("leaves alone what the schema lets be a string, what does not parse, and what parses to another kind", () => {
    const sent = {
      label: '{"a":1}',
      either: '{"a":1}',
      filter: "{not json",
      ids: '{"a":1}',
      unknown: '{"a":1}',
    };
    const { args, repaired } = repairJsonStringArguments(schema, sent);
    expect(args).toBe(sent);
    expect(repaired).toEqual([]);
  });

  it("never repairs twice: text that parses to text stays as sent, and a repaired value is not a string", () => {
    const doubled = JSON.stringify(JSON.stringify({ a: 1 }));
    expect(repairJsonStringArguments(schema, { filter: doubled }).repaired).toEqual([]);
    const once = repairJsonStringArguments(schema, { filter: '{"a":"[1]"}' });
    expect(repairJsonStringArguments(schema, once.args).repaired).toEqual([]);
  });
});

describe("a call with JSON-text arguments, against a real server", () => {
  let temp: TempDir;
  let runtime: AdapterRuntime;
  beforeEach(async () => {
    temp = await createTempDir();
    await writeFile(temp.join("tools.json"), JSON.stringify({ inspect: { inputSchema: schema } }));
    runtime = new AdapterRuntime({
      servers: [
        {
          name: "fx",
          transport: "stdio",
          command: process.execPath,
          args: [stdioFixtureServerPath],
          env: { FIXTURE_TOOLS_FILE: temp.join("tools.json") },
          lifecycle: "lazy",
          protocol: "legacy",
          source: { file: temp.join("mcp-adapter.json"), key: "mcpServers.fx" },
        },
      ],
      connect: connectWith(),
      host: headlessHost(),
      direct: { strictDirectToolArguments: true },
    });
  });
  afterEach(async () => {
    await runtime.shutdown();
    await temp.remove();
  });
  const texts = (result: { content: { type: string; text?: string }[] }) =>
    result.content.map((c) => c.text ?? "");

  it("sends the parsed values and says so first, by the proxy and the direct path", async () => {
    const sent = { filter: '{"state":"open"}', ids: "[1,2]", label: '{"kept":1}' };
    const received = JSON.stringify({ filter: { state: "open" }, ids: [1, 2], label: '{"kept":1}' });
    const proxied = texts(await runProxyRequest(runtime, { tool: "fx_inspect", args: sent }));
    const direct = texts(await runtime.callDirect("fx_inspect", "fx", sent));
    for (const [note, answer] of [proxied, direct]) {
      expect(note).toBe(
        'Note: "filter" (object), "ids" (array) arrived as JSON text and were parsed once; send them as JSON values, not strings.',
      );
      expect(answer).toBe(received);
    }
  }, 60_000);

  it("adds no note when nothing was repaired, and the strict check still names a field that does not fit", async () => {
    expect(texts(await runtime.callDirect("fx_inspect", "fx", { ids: [3] }))).toEqual([
      JSON.stringify({ ids: [3] }),
    ]);
    await expect(runtime.callDirect("fx_inspect", "fx", { ids: '["x"]' })).rejects.toThrow(
      /argument "ids\[0\]" must be number/,
    );
  }, 60_000);
});
