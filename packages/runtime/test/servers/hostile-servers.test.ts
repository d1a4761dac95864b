import { readFile, stat } from "node:fs/promises";
import {
  COLLIDING_TOOL_NAMES,
  createFixtureServer,
  createTempDir,
  type HostileFault,
  hugeAnswerServerPath,
  readWireLog,
  serveHostileServer,
  serveStreamableHttp,
  stdioFixtureServerPath,
  wireLogProxyPath,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/create-runtime.js";
import { headlessHost } from "../../src/host.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

const textOf = (outcome: { content: Array<{ type: string; text?: string }> }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

/** A runtime with one hostile server (`hostile`) beside a well-behaved one (`good`), both real HTTP servers. */
async function hostileRuntime(fault: HostileFault) {
  const dir = await createTempDir();
  const hostile = await serveHostileServer(fault);
  const good = await serveStreamableHttp(() =>
    createFixtureServer({ tools: [{ name: "add", description: "Adds two numbers" }] }),
  );
  const notices: string[] = [];
  const cacheFile = dir.join("mcp-cache.json");
  const runtime = await createRuntime({
    cwd: dir.path,
    config: { mcpServers: { hostile: { url: hostile.url }, good: { url: good.url } } },
    metadataCacheFile: cacheFile,
    host: headlessHost({ notify: (message) => notices.push(message) }),
  });
  return {
    runtime,
    notices,
    cacheFile,
    async [Symbol.asyncDispose]() {
      await runtime.shutdown();
      await hostile.close();
      await good.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}

describe("a server that lists more than the catalog takes", () => {
  it("refuses a 50 MB description: the server is unavailable with the reason, the others work, the cache stays small", async () => {
    await using env = await hostileRuntime("huge-description");
    const search = await runProxyRequest(env.runtime, { search: "numbers" });
    const text = textOf(search);
    expect(text).toContain("good_add");
    expect(text).toContain(
      '(server hostile unavailable: Server "hostile" listed more than 4 MiB of tool, resource and prompt descriptions',
    );
    expect(Buffer.byteLength(text)).toBeLessThan(2048);
    const server = textOf(await runProxyRequest(env.runtime, { server: "hostile" }));
    expect(server).toMatch(
      /^hostile: connected, 0 tools\n\(unavailable: Server "hostile" listed more than 4 MiB/,
    );
    const cache = JSON.parse(await readFile(env.cacheFile, "utf8")) as { servers: Record<string, unknown> };
    expect(Object.keys(cache.servers)).toEqual(["good"]);
    expect((await stat(env.cacheFile)).size).toBeLessThan(4096);
  }, 120_000); // two 50 MB listings over HTTP on a busy machine

  it("refuses 15,000 tools with an error naming the server and the bound", async () => {
    await using env = await hostileRuntime("many-tools");
    await expect(runProxyRequest(env.runtime, { describe: "tool_1", server: "hostile" })).rejects.toThrow(
      // Describing a tool of a named server that could not be listed says why, not "No MCP tool named".
      'server "hostile" is unavailable: Server "hostile" listed 15,000 tools; a server may list at most 10,000 tools, so none of its entries were taken',
    );
    expect(textOf(await runProxyRequest(env.runtime, { describe: "good_add" }))).toContain(
      "Adds two numbers",
    );
  });
});

describe("a server refused for listing more than the catalog takes", () => {
  it("is not listed again by later searches, calls and describes, only after a reconnect or an edit", async () => {
    await using dir = await createTempDir();
    const log = dir.join("wire.jsonl");
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        mcpServers: {
          // 5 MiB of descriptions, over the 4 MiB bound; the proxy logs every message on the wire.
          huge: {
            command: process.execPath,
            args: [wireLogProxyPath, log, process.execPath, hugeAnswerServerPath],
            env: { HUGE_LIST_MIB: "5" },
          },
          good: { command: process.execPath, args: [stdioFixtureServerPath] },
        },
      },
      metadataCacheFile: dir.join("mcp-cache.json"),
    });
    const listings = async () =>
      (await readWireLog(log)).filter((e) => e.from === "client" && e.message.method === "tools/list").length;
    const refusal = 'Server "huge" listed more than 4 MiB of tool, resource and prompt descriptions';
    try {
      for (const query of ["echo", "numbers", "weather"]) {
        expect(textOf(await runProxyRequest(runtime, { search: query }))).toContain(refusal);
      }
      for (let i = 0; i < 2; i++) {
        await expect(runProxyRequest(runtime, { tool: "huge_echo", args: { text: "x" } })).rejects.toThrow(
          refusal,
        );
      }
      await expect(runProxyRequest(runtime, { describe: "huge_echo" })).rejects.toThrow(refusal);
      expect(await listings()).toBe(1);
      // A reconnect is the user asking again: it lists once more (and is refused again).
      await expect(runProxyRequest(runtime, { connect: "huge" })).rejects.toThrow(refusal);
      expect(await listings()).toBe(2);
      // An edited definition is another server: listed afresh, and now within the bounds.
      const huge = runtime.servers.definition("huge")!;
      await runtime.replace([{ ...huge, env: { HUGE_LIST_MIB: "1" } }, runtime.servers.definition("good")!]);
      expect(textOf(await runProxyRequest(runtime, { tool: "huge_echo", args: { text: "edited" } }))).toBe(
        "edited",
      );
      expect(await listings()).toBe(3);
    } finally {
      await runtime.shutdown();
    }
  }, 60_000);
});

describe("tool names that fold alike on one server", () => {
  it("keeps each reachable under its own name, calls it by its MCP name, and warns of empty names", async () => {
    await using env = await hostileRuntime("colliding-names");
    const search = await runProxyRequest(env.runtime, {
      search: "sums numbers",
      server: "hostile",
      limit: 10,
    });
    expect(search.details).toMatchObject({
      hits: expect.arrayContaining([
        "hostile_get_sum",
        "hostile_get_sum_2",
        "hostile_get_sum_3",
        "hostile_get_sum_4",
      ]),
    });
    const calls: Record<string, string> = {};
    for (const name of ["hostile_get_sum", "hostile_get_sum_2", "hostile_get_sum_3", "hostile_get_sum_4"])
      calls[name] = textOf(await runProxyRequest(env.runtime, { tool: name }));
    expect(calls).toEqual({
      hostile_get_sum: "called get_sum",
      hostile_get_sum_2: "called get sum",
      hostile_get_sum_3: "called get-sum",
      hostile_get_sum_4: "called get.sum",
    });
    // The server's own name still reaches its own tool, with or without the prefix.
    expect(textOf(await runProxyRequest(env.runtime, { tool: "get_sum", server: "hostile" }))).toBe(
      "called get_sum",
    );
    expect(textOf(await runProxyRequest(env.runtime, { tool: "get.sum", server: "hostile" }))).toBe(
      "called get.sum",
    );
    const described = textOf(await runProxyRequest(env.runtime, { describe: "hostile_get_sum_2" }));
    expect(described.split("\n")[0]).toBe("hostile_get_sum_2 (server hostile, tool get sum)");
    await expect(runProxyRequest(env.runtime, { tool: "GETSUM", server: "hostile" })).rejects.toThrow(
      'Tool "GETSUM" matches 4 entries of server hostile whose names differ only in case or punctuation',
    );
    expect(env.notices.filter((n) => n.includes("empty name"))).toEqual([
      'MCP server "hostile" listed a tool with an empty name; it was left out',
      'MCP server "hostile" listed a tool with an empty name; it was left out',
    ]);
    expect(COLLIDING_TOOL_NAMES).toHaveLength(6);
  });
});

describe("what the model reads from describe, search and instructions", () => {
  it("cuts a 1 MiB description and 1 MiB of instructions to the inline cap, with a note and the full text on disk", async () => {
    await using env = await hostileRuntime("long-texts");
    for (const request of [{ describe: "hostile_verbose" }, { instructions: "hostile" }]) {
      const outcome = await runProxyRequest(env.runtime, request);
      const text = textOf(outcome);
      expect(Buffer.byteLength(text)).toBeLessThan(60 * 1024);
      const note =
        /\[Output truncated: showing .* of 1\.\d MiB .*Full text saved to (\S+) — read or grep/.exec(text);
      expect(note, text.slice(-300)).not.toBeNull();
      const full = await readFile(note![1]!, "utf8");
      expect(full.length).toBeGreaterThan(1024 * 1024);
    }
  });

  it("cuts a search listing thousands of hits", async () => {
    await using dir = await createTempDir();
    const many = await serveStreamableHttp(() =>
      createFixtureServer({
        tools: Array.from({ length: 3000 }, (_, i) => ({
          name: `widget_${i}`,
          description: `Widget tool ${i}`,
        })),
      }),
    );
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { mcpServers: { many: { url: many.url } } },
      metadataCacheFile: false,
    });
    try {
      const outcome = await runProxyRequest(runtime, { search: "widget", limit: 3000 });
      const text = textOf(outcome);
      expect(Buffer.byteLength(text)).toBeLessThan(60 * 1024);
      expect(text).toMatch(/\[Output truncated: showing .* Full text saved to /);
      expect(outcome.details).toMatchObject({ mode: "search", total: 3000 });
    } finally {
      await runtime.shutdown();
      await many.close();
    }
  });
});
