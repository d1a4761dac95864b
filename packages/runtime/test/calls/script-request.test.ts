import { readFile, stat } from "node:fs/promises";
import { ScriptArgumentsError } from "@pi-mcp-adapter/script/tool";
import { createFixtureServer, createTempDir, serveStreamableHttp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/create-runtime.js";
import { runScriptRequest } from "../../src/tools/script-request.js";

const textOf = (outcome: { content: Array<{ type: string; text?: string }> }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

async function mathRuntime(
  settings: Record<string, unknown> = {},
  metadataCacheFile: string | false = false,
) {
  const dir = await createTempDir();
  const server = await serveStreamableHttp(() =>
    createFixtureServer({
      tools: [
        {
          name: "add",
          description: "Adds two numbers",
          annotations: { readOnlyHint: true },
          inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
          handler: (args) => ({
            content: [{ type: "text", text: JSON.stringify({ sum: Number(args.a) + Number(args.b) }) }],
          }),
        },
        { name: "wipe", description: "Deletes everything", annotations: { destructiveHint: true } },
        {
          name: "lookup",
          description: "Looks an order up",
          annotations: { readOnlyHint: true },
          inputSchema: { type: "object", properties: { id: { type: "string" } } },
          handler: (args) =>
            args.id === "missing"
              ? {
                  content: [{ type: "text", text: "no order missing" }],
                  isError: true,
                  _meta: { "x/trace": "t1" },
                }
              : {
                  content: [{ type: "text", text: "x".repeat(300_000) }],
                  structuredContent: { id: args.id, state: "open" },
                  _meta: { "x/trace": "t2" },
                },
        },
      ],
    }),
  );
  const runtime = await createRuntime({
    cwd: dir.path,
    config: {
      settings: { approveTools: "destructive", ...settings },
      mcpServers: { math: { url: server.url } },
    },
    metadataCacheFile,
  });
  return {
    runtime,
    async [Symbol.asyncDispose]() {
      await runtime.shutdown();
      await server[Symbol.asyncDispose]();
      await dir[Symbol.asyncDispose]();
    },
  };
}

describe("mcpScript on the runtime", () => {
  it("searches, describes and calls a real server through the pipeline, origin script", async () => {
    await using env = await mathRuntime({ trace: { enabled: true } });
    const origins: string[] = [];
    env.runtime.observe((record) => origins.push(`${record.origin} ${record.name}`));
    const result = await runScriptRequest(env.runtime, {
      code: `
        const { hits } = await tools.search({ query: "add numbers" });
        const path = hits[0].path;
        const first = await tools.call(path, { a: 1, b: 2 });
        const second = await tools.math_add({ a: JSON.parse(first.data.content[0].text).sum, b: 4 });
        const described = await tools.describe({ path });
        emit("total " + JSON.parse(second.data.content[0].text).sum);
        return { path, shape: described.observedOutputShape, props: Object.keys(described.inputSchema.properties) };`,
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe(
      'total 7\nResult: {\n  "path": "math_add",\n  "shape": {\n    "sum": "number"\n  },\n  "props": [\n    "a",\n    "b"\n  ]\n}',
    );
    expect(origins).toEqual(["script add", "script add"]);
    expect(result.details).toMatchObject({ mode: "script", ok: true, calls: 2 });
  });

  it("in script mode, keeps observed output shapes for later sessions next to the metadata cache", async () => {
    await using agent = await createTempDir();
    const cacheFile = agent.join("mcp-cache.json");
    const describeCode = `return (await tools.describe({ path: "math_add" })).observedOutputShape ?? "none";`;
    {
      await using env = await mathRuntime({ scriptMode: true }, cacheFile);
      expect(textOf(await runScriptRequest(env.runtime, { code: describeCode }))).toBe("Result: none");
      await runScriptRequest(env.runtime, { code: `await tools.math_add({ a: 1, b: 2 });` });
    }
    const shapesFile = agent.join("mcp-output-shapes.json");
    expect(JSON.parse(await readFile(shapesFile, "utf8"))).toEqual({
      version: 1,
      shapes: { "math/add": { sum: "number" } },
    });
    expect((await stat(shapesFile)).mode & 0o777).toBe(0o600);
    await using later = await mathRuntime({ scriptMode: true }, cacheFile);
    expect(textOf(await runScriptRequest(later.runtime, { code: describeCode }))).toBe(
      'Result: {\n  "sum": "number"\n}',
    );
  });

  it("hands a script the MCP result as the server sent it: _meta, isError and all, unguarded", async () => {
    await using env = await mathRuntime();
    const result = await runScriptRequest(env.runtime, {
      code: `
        const found = await tools.math_lookup({ id: "o1" });
        const missing = await tools.call("math_lookup", { id: "missing" });
        return {
          ok: found.ok, isError: found.data.isError, meta: found.data._meta, structured: found.data.structuredContent,
          length: found.data.content[0].text.length,
          missing: { ok: missing.ok, code: missing.error.code, message: missing.error.message,
            isError: missing.data.isError, meta: missing.data._meta },
        };
      `,
    });
    expect(result.isError, textOf(result)).toBe(false);
    const value = JSON.parse(textOf(result).slice(textOf(result).indexOf("{")));
    expect(value).toEqual({
      ok: true,
      isError: false,
      meta: { "x/trace": "t2" },
      structured: { id: "o1", state: "open" },
      // Past the output guard's inline limit, whole: the script's transfer budget bounds it.
      length: 300_000,
      missing: {
        ok: false,
        code: "tool_error",
        message: "no order missing",
        isError: true,
        meta: { "x/trace": "t1" },
      },
    });
  });

  it("gives a call headless approval refuses to the script as { ok: false }", async () => {
    await using env = await mathRuntime();
    const result = await runScriptRequest(env.runtime, {
      code: `const r = await tools.call("math_wipe", {}); return r.ok ? "called" : r.error.code;`,
    });
    expect(textOf(result)).toBe("Result: approval_required");
  });

  it("returns a timeout as an error result, and the runtime keeps serving calls", async () => {
    await using env = await mathRuntime();
    const result = await runScriptRequest(env.runtime, { code: "while (true) {}", timeoutMs: 200 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "mcpScript failed (timeout): mcpScript timed out after 200 ms and was stopped",
    );
    const call = await env.runtime.call("math_add", { a: 1, b: 1 });
    expect(textOf(call)).toBe('{"sum":2}');
  });

  it("rejects bad arguments with a message naming the field", async () => {
    await using env = await mathRuntime();
    await expect(runScriptRequest(env.runtime, { code: "" })).rejects.toThrow(
      /code must be a non-empty string/,
    );
    await expect(runScriptRequest(env.runtime, { code: "1", timeoutMs: -5 })).rejects.toThrow(
      /timeoutMs must be an integer from 1 to 600000/,
    );
    // The script package's own error, with a code naming the field, reaches the runtime's callers.
    await expect(runScriptRequest(env.runtime, { code: "" })).rejects.toBeInstanceOf(ScriptArgumentsError);
    await expect(runScriptRequest(env.runtime, { code: "1", timeoutMs: -5 })).rejects.toMatchObject({
      name: "ScriptArgumentsError",
      code: "invalid_timeout",
    });
  });
});
