import { describe, expect, it } from "vitest";
import { formatScriptOutcome, runScript, type ScriptCallResult, type ScriptHost } from "../src/index.js";

/** A host whose one tool adds numbers, recording what the script asked. */
function addingHost() {
  const asked: string[] = [];
  const host: ScriptHost = {
    async search(query) {
      asked.push(`search ${query.query}`);
      return { hits: [{ path: "math_add", server: "math", name: "add", description: "Adds a and b" }] };
    },
    async describe(query) {
      asked.push(`describe ${query.path}`);
      if (query.path !== "math_add") throw new Error(`No MCP tool named "${query.path}"`);
      return { path: "math_add", inputSchema: { type: "object" } };
    },
    async call(path, args): Promise<ScriptCallResult> {
      asked.push(`call ${path}`);
      if (path !== "math_add")
        return { ok: false, error: { code: "unknown_tool", message: `No MCP tool named "${path}"` } };
      const sum = Number(args.a) + Number(args.b);
      return { ok: true, data: { content: [{ type: "text", text: String(sum) }] } };
    },
  };
  return { host, asked };
}

describe("runScript", () => {
  it("searches, calls twice with logic between, emits and returns", async () => {
    const { host, asked } = addingHost();
    const outcome = await runScript(
      `const found = await tools.search({ query: "add" });
       const path = found.hits[0].path;
       const one = await tools.call(path, { a: 2, b: 3 });
       const two = await tools[path]({ a: Number(one.data.content[0].text), b: 10 });
       emit("total " + two.data.content[0].text);
       console.log("done", { n: 2 });
       return { total: Number(two.data.content[0].text) };`,
      host,
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome).toMatchObject({ ok: true, emitted: ["total 15"], value: { total: 15 }, calls: 2 });
    expect(asked).toEqual(["search add", "call math_add", "call math_add"]);
    expect(formatScriptOutcome(outcome)).toBe(
      'total 15\nResult: {\n  "total": 15\n}\nConsole:\ndone {"n":2}',
    );
  });

  it("gives failed calls as { ok: false } and rejects a bad describe with the host's message", async () => {
    const { host } = addingHost();
    const outcome = await runScript(
      `const r = await tools.nope({});
       let message;
       try { await tools.describe({ path: "nope" }); } catch (e) { message = e.message; }
       return { r, message };`,
      host,
    );
    expect(outcome.value).toEqual({
      r: { ok: false, error: { code: "unknown_tool", message: 'No MCP tool named "nope"' } },
      message: 'No MCP tool named "nope"',
    });
  });

  it("stops an endless loop at the deadline, keeping what was emitted before", async () => {
    const { host } = addingHost();
    const started = Date.now();
    // The deadline counts from the worker's start: on a loaded machine starting the thread alone can
    // take a few hundred ms, so it is long enough for the emit to happen first.
    const outcome = await runScript(`emit("before"); while (true) {}`, host, { timeoutMs: 2000 });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toEqual({
      code: "timeout",
      message: "mcpScript timed out after 2000 ms and was stopped",
    });
    expect(outcome.emitted).toEqual(["before"]);
    // The host process goes on: a new script runs normally.
    expect((await runScript("return 1 + 1", host)).value).toBe(2);
  });

  it.each([
    ["process.env", "process is not defined. mcpScript has no process"],
    ['require("node:fs")', "require is not defined. mcpScript has no require"],
    ['await import("node:fs")', "cannot import modules"],
    ['eval("1")', "does not allow eval"],
    ['tools.call.constructor("return process")()', "does not allow eval"],
  ])("refuses %s with a clear error", async (code, message) => {
    const { host } = addingHost();
    const outcome = await runScript(`return ${code};`, host);
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.code).toBe("script_error");
    expect(outcome.error?.message).toContain(message);
  });

  it("hands no function of the worker's realm to script code, even through a patched Promise.then", async () => {
    const { host } = addingHost();
    const outcome = await runScript(
      `const then = Promise.prototype.then;
       Promise.prototype.then = function (onDone, onFailed) {
         for (const fn of [onDone, onFailed]) {
           try { emit(typeof fn.constructor("return typeof process")()); } catch (e) { emit("blocked"); }
         }
         return then.call(this, onDone, onFailed);
       };
       await tools.search({ query: "x" });
       return 1;`,
      host,
    );
    expect(outcome.emitted.every((value) => value === "blocked")).toBe(true);
    expect(outcome.value).toBe(1);
  });

  it("throws no error of the worker's realm into script code when the script breaks its own JSON", async () => {
    const { host } = addingHost();
    const outcome = await runScript(
      `JSON.stringify = () => "not json";
       try { emit("x"); } catch (e) {
         try { return typeof e.constructor.constructor("return process")(); } catch (inner) { return "blocked"; }
       }
       return "no throw";`,
      host,
    );
    expect(["blocked", "no throw"]).toContain(outcome.value);
  });

  it("fails cleanly when code closes its async wrapper", async () => {
    const { host } = addingHost();
    const outcome = await runScript("})(); throw new Error('top level'); (async () => {", host);
    expect(outcome.error).toEqual({ code: "script_error", message: "Error: top level" });
  });

  it("reports a syntax error with the script's own line", async () => {
    const { host } = addingHost();
    const outcome = await runScript("const a = ;", host);
    expect(outcome.error?.message).toMatch(/^SyntaxError: Unexpected token/);
  });

  it("ends a script that moves more than the transfer budget", async () => {
    const { host } = addingHost();
    const outcome = await runScript(`for (let i = 0; i < 100; i++) emit("x".repeat(1000)); return 1;`, host, {
      transferBudgetBytes: 20_000,
    });
    expect(outcome.error?.code).toBe("transfer_budget");
    expect(outcome.error?.message).toContain("moved more than");
    expect(outcome.emitted.length).toBeLessThan(100);
  });

  it("runs timers inside the deadline and sees no environment", async () => {
    const { host } = addingHost();
    const outcome = await runScript(
      `await new Promise((r) => setTimeout(r, 20));
       return [typeof process, typeof require, typeof fetch, typeof globalThis.Buffer];`,
      host,
    );
    expect(outcome.value).toEqual(["undefined", "undefined", "undefined", "undefined"]);
  });

  it("aborts in-flight calls when the script is cancelled", async () => {
    let aborted = false;
    let callStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      callStarted = resolve;
    });
    const host: ScriptHost = {
      search: async () => ({}),
      describe: async () => ({}),
      call: (_path, _args, { signal }) =>
        new Promise((resolve) => {
          callStarted();
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve({ ok: false, error: { code: "aborted", message: "aborted" } });
          });
        }),
    };
    const controller = new AbortController();
    const running = runScript(`await tools.call("slow", {}); return 1;`, host, { signal: controller.signal });
    // Cancel once the worker's call has reached the host, however long the worker takes to start.
    await started;
    controller.abort();
    const outcome = await running;
    expect(outcome.error).toEqual({ code: "aborted", message: "mcpScript was cancelled" });
    expect(aborted).toBe(true);
  });
});
