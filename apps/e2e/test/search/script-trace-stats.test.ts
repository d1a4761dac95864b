/**
 * mcpScript, the session trace and call stats in real Pi, against
 * server-everything over stdio: a script that searches and calls `get-sum`
 * twice; a runaway script stopped at its deadline with the session going
 * on; scripts reaching for `process` / `require`; the trace on disk; and
 * `/mcp-adapter stats` after three calls.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { type ScriptStep, serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const everything = { command: process.execPath, args: [serverEverythingPath, "stdio"] };

const SUM_SCRIPT = `
const found = await tools.search({ query: "sum of two numbers", server: "everything" });
const hit = found.hits.find((h) => h.name === "get-sum");
const sumOf = (r) => Number(/is (-?\\d+)/.exec(r.data.content[0].text)[1]);
const first = await tools.call(hit.path, { a: 19, b: 23 }, { server: hit.server });
const second = await tools.call(hit.path, { a: sumOf(first), b: 1000 }, { server: hit.server });
emit("total: " + sumOf(second));
return { calls: 2 };`;

const script = (code: string, timeoutMs?: number): ScriptStep => ({
  toolCall: { name: "mcpScript", arguments: { code, ...(timeoutMs ? { timeoutMs } : {}) } },
});

async function traceLines(dir: string): Promise<{ file: string; events: Record<string, unknown>[] }> {
  const traces = path.join(dir, ".pi", "mcp-traces");
  const [name] = await readdir(traces);
  const file = path.join(traces, name as string);
  const text = await readFile(file, "utf8");
  return {
    file,
    events: text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe.each(piHosts())("$label", (host) => {
  it("mcpScript sums through server-everything, stops a runaway script on time, and refuses process/require", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: {
        settings: { scriptMode: true, trace: { enabled: true } },
        mcpServers: { everything },
      },
      steps: [
        script(SUM_SCRIPT),
        script("emit('spinning'); while (true) {}", 1500),
        { toolCall: { name: "mcp", arguments: { tool: "everything_get-sum", args: { a: 2, b: 3 } } } },
        script("return process.env.HOME;"),
        script('const fs = require("node:fs"); return fs.readdirSync("/");'),
        { text: "Done." },
      ],
    });
    const started = Date.now();
    const run = await project.run("Add some numbers with a script.");
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests[0]?.tools?.map((t) => t.function.name)).toContain("mcpScript");
    // Each request carries the whole history: its last tool result is the newest.
    const results = run.requests.slice(1).map((request) => toolResultTexts(request).at(-1) ?? "");
    expect(results).toHaveLength(5);
    expect(results[0]).toBe('total: 1042\nResult: {\n  "calls": 2\n}');
    expect(results[1]).toContain(
      "mcpScript failed (timeout): mcpScript timed out after 1500 ms and was stopped",
    );
    expect(results[1]).toContain("spinning");
    // The same session goes on: the next tool call works.
    expect(results[2]).toBe("The sum of 2 and 3 is 5.");
    expect(results[3]).toContain("ReferenceError: process is not defined. mcpScript has no process");
    expect(results[4]).toContain("ReferenceError: require is not defined. mcpScript has no require");
    expect(Date.now() - started).toBeLessThan(60_000);

    // The trace: the script's calls (origin script), the proxy call, connects; no arguments or results.
    const { file, events } = await traceLines(project.dir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const calls = events.filter((e) => e.event === "call").map((e) => `${e.origin} ${e.tool} ${e.outcome}`);
    expect(calls).toEqual(["script get-sum ok", "script get-sum ok", "proxy get-sum ok"]);
    expect(events).toContainEqual(
      expect.objectContaining({ event: "connect", server: "everything", state: "connected" }),
    );
    const text = await readFile(file, "utf8");
    for (const secret of ["total:", "The sum", "sum of two numbers", "process.env", serverEverythingPath])
      expect(text).not.toContain(secret);
  }, 120_000);

  it("/mcp-adapter stats shows three calls with latencies; a trace with maxEvents 5 stops at 5", async () => {
    const sum = (a: number, b: number): ScriptStep => ({
      toolCall: { name: "mcp", arguments: { tool: "everything_get-sum", args: { a, b } } },
    });
    await using project = await createPiProject({
      host,
      adapterConfig: {
        settings: { captureStats: true, trace: { enabled: true, maxEvents: 5 } },
        mcpServers: { everything },
      },
      steps: [sum(1, 2), sum(3, 4), sum(5, 6), { text: "Three sums." }],
    });
    const child = project.rpc();
    const notices: string[] = [];
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const timer = setTimeout(() => child.kill(), 90_000);
    try {
      send({ id: "p0", type: "prompt", message: "Add three pairs of numbers." });
      for await (const line of createInterface({ input: child.stdout })) {
        const message = JSON.parse(line) as { type?: string; method?: string; id?: string; message?: string };
        if (message.type === "agent_end") send({ id: "p1", type: "prompt", message: "/mcp-adapter stats" });
        if (message.type === "extension_ui_request" && message.method === "notify") {
          notices.push(message.message ?? "");
          if ((message.message ?? "").startsWith("MCP call stats")) break;
        }
        if (
          message.type === "extension_ui_request" &&
          message.method !== "notify" &&
          message.method !== "setStatus"
        ) {
          send({ type: "extension_ui_response", id: message.id, cancelled: true });
        }
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }
    // Without scriptMode there is no mcpScript tool.
    const declared = project.model.requests[0]?.tools?.map((t) => t.function.name) ?? [];
    expect(declared).toContain("mcp");
    expect(declared).not.toContain("mcpScript");
    const stats = notices.find((n) => n.startsWith("MCP call stats")) ?? notices.join("\n");
    expect(stats).toMatch(
      /^MCP call stats \(.*\.pi\/mcp-tool-stats\.json\)\nserver\/tool\s+calls\s+errors\s+timeouts\s+p50\s+p95/,
    );
    expect(stats).toMatch(/everything\/get-sum\s+3\s+0\s+0\s+[\d.]+ ms\s+[\d.]+ ms/);

    const { events } = await traceLines(project.dir);
    expect(events).toHaveLength(6);
    expect(events.at(-1)).toMatchObject({ event: "trace_stopped", reason: "maxEvents", events: 5 });
  }, 120_000);
});
