/**
 * One bad server must not hurt the session, through real stdio processes:
 * a server that never answers `initialize` beside a healthy one, a server
 * that failed and is in its failure backoff, a server that floods
 * `tools/list_changed` while calls run, and one that raises a stream of
 * forms. Every wait is for an event (a marker file, a state), never a time.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  createTempDir,
  faultServerPath,
  hostileServerPath,
  recordedPids,
  stdioFixtureServerPath,
} from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { afterEach, describe, expect, it } from "vitest";
import { clientHandlersFor } from "../../src/client-features/client-handlers.js";
import { formatSearch } from "../../src/format/format.js";
import { formatStatus } from "../../src/format/status-text.js";
import {
  type AdapterRuntime,
  createRuntime,
  headlessHost,
  AdapterRuntime as Runtime,
  runProxyRequest,
} from "../../src/index.js";
import { connectWith, stdioDefinition } from "../definitions.js";

let runtime: AdapterRuntime | undefined;
afterEach(async () => {
  await runtime?.shutdown();
  runtime = undefined;
});

function node(
  name: string,
  script: string,
  env: Record<string, string>,
  extra: Partial<ServerDefinition> = {},
) {
  return stdioDefinition(name, { command: process.execPath, args: [script], env, ...extra });
}

const textOf = (result: { content: unknown[] }) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");

describe("a server that never answers initialize", () => {
  it("does not hold up calls, describe or search of a healthy server beside it", async () => {
    await using markers = await createTempDir();
    // The hanging server's connect would only end after 10 minutes: anything that waited for it would time out.
    const hang = node(
      "hang",
      hostileServerPath,
      { HOSTILE_MODE: "hang-initialize", HOSTILE_MARKER_DIR: markers.path },
      {
        requestTimeoutMs: 600_000,
      },
    );
    runtime = new Runtime({
      servers: [hang, node("good", stdioFixtureServerPath, {})],
      connect: connectWith(),
    });

    for (const a of [1, 3, 5]) {
      expect(textOf(await runtime.call("good_add", { a, b: 1 }))).toBe(String(a + 1));
    }
    expect((await runtime.catalog.resolve("good_echo")).server).toBe("good");
    const search = await runtime.catalog.search("add numbers");
    expect(search.hits[0]?.tool.prefixedName).toBe("good_add");
    expect(formatSearch("add numbers", search)).toContain(
      '(server "hang" is still connecting; its tools are listed once it answers)',
    );
    // All of that finished while the hanging server had been started and was still in initialize.
    await expect.poll(() => existsSync(path.join(markers.path, "initialize"))).toBe(true);
    expect(runtime.listings.summaries().find((s) => s.name === "hang")?.state).toBe("connecting");
  });

  it("does not make the first search wait for an eager server still starting", async () => {
    await using markers = await createTempDir();
    const hang = node(
      "hang",
      hostileServerPath,
      { HOSTILE_MODE: "hang-initialize", HOSTILE_MARKER_DIR: markers.path },
      { requestTimeoutMs: 600_000, lifecycle: "eager" },
    );
    runtime = new Runtime({
      servers: [hang, node("good", stdioFixtureServerPath, {})],
      connect: connectWith(),
    });
    void runtime.start(); // bounded at 30 s; not awaited, as the Pi shell does
    await expect.poll(() => existsSync(path.join(markers.path, "initialize"))).toBe(true);
    const search = await runtime.catalog.search("add numbers");
    expect(search.hits[0]?.tool.prefixedName).toBe("good_add");
    expect(formatSearch("add numbers", search)).toContain(
      '(server "hang" is still connecting; its tools are listed once it answers)',
    );
    expect(runtime.listings.summaries().find((s) => s.name === "hang")?.state).toBe("connecting");
  });
});

describe("the first search of a session beside a lazy server that never answers initialize", () => {
  it("answers from the servers that did, once the late one is past its wait, and names it", async () => {
    await using markers = await createTempDir();
    // Its connect would end only after 10 minutes: the search returning at all shows it stopped waiting.
    const hang = node(
      "hang",
      hostileServerPath,
      { HOSTILE_MODE: "hang-initialize", HOSTILE_MARKER_DIR: markers.path },
      { requestTimeoutMs: 600_000 },
    );
    runtime = new Runtime({
      servers: [hang, node("good", stdioFixtureServerPath, {})],
      connect: connectWith(),
    });
    const search = await runtime.catalog.search("add numbers");
    expect(search.hits[0]?.tool.prefixedName).toBe("good_add");
    expect(formatSearch("add numbers", search)).toContain(
      '(server "hang" is still connecting; its tools are listed once it answers)',
    );
    expect(existsSync(path.join(markers.path, "initialize"))).toBe(true);
    expect(runtime.listings.summaries().find((s) => s.name === "hang")?.state).toBe("connecting");
    // The next search does not wait for it again.
    expect((await runtime.catalog.search("echo")).hits[0]?.tool.prefixedName).toBe("good_echo");
  }, 60_000);
});

describe("a server whose first listing is slower than the straggler wait", () => {
  // Its initialize answers after 1.5 s, long past the 100 ms the runtime waits for stragglers here (no factor).
  const servers = () => [
    node("good", stdioFixtureServerPath, {}),
    node("slow", faultServerPath, { FAULT_MODE: "slow-initialize", FAULT_DELAY_MS: "1500" }),
  ];

  it("a call of its own tool waits for it, as the first call of a session", async () => {
    runtime = new Runtime({
      servers: servers(),
      connect: connectWith(),
      catalog: { stragglerWait: { minWaitMs: 100, factor: 0 } },
    });
    expect(textOf(await runtime.call("slow_echo", { text: "first" }))).toBe("first");
  });

  it("and after a search that started its listing", async () => {
    runtime = new Runtime({
      servers: servers(),
      connect: connectWith(),
      catalog: { stragglerWait: { minWaitMs: 100, factor: 0 } },
    });
    expect(formatSearch("echo", await runtime.catalog.search("echo"))).toContain("good_echo");
    expect(textOf(await runtime.call("slow_echo", { text: "after a search" }))).toBe("after a search");
  });
});

describe("failure backoff in the runtime", () => {
  it("says a failed server is unavailable without starting it again, until mcp({connect}) forces a try", async () => {
    await using pids = await createTempDir();
    let now = 1_000_000;
    const db = node("db", faultServerPath, { FAULT_MODE: "exit-on-initialize", FIXTURE_PID_DIR: pids.path });
    runtime = new Runtime({
      servers: [db, node("good", stdioFixtureServerPath, {})],
      connect: connectWith({ killGraceMs: 300 }),
      lifecycle: { now: () => now },
    });
    await expect(runtime.call("db_echo", {})).rejects.toThrow(
      /^server "db" is unavailable: .*fatal: cannot open database/,
    );
    now += 12_000;

    const reason = /.*fatal: cannot open database.*/.source;
    const sentence = new RegExp(
      `^server "db" is unavailable \\(last failed 12 s ago: ${reason}\\); next try in 18 s, or reconnect "db" to try now$`,
    );
    await expect(runtime.call("db_echo", {})).rejects.toThrow(sentence);
    await expect(runtime.catalog.resolve("echo", "db")).rejects.toThrow(sentence);
    const search = formatSearch("echo", await runtime.catalog.search("echo"));
    expect(search.split("\n")).toContainEqual(
      expect.stringMatching(
        /^\(server "db" is unavailable \(last failed 12 s ago: .*\); next try in 18 s, .*\)$/,
      ),
    );
    expect(search).toContain("good_echo");
    expect(await recordedPids(pids.path)).toHaveLength(1); // none of that started it again
    expect(formatStatus(runtime.listings.summaries(), [], now)).toMatch(
      /- db: failed 12s ago: .*fatal: cannot open database.* \(next try in 18s\)/,
    );

    await expect(runProxyRequest(runtime, { connect: "db" })).rejects.toThrow(/fatal: cannot open database/);
    expect(await recordedPids(pids.path)).toHaveLength(2); // the explicit connect tried at once
  });

  it("retries on every use with failureBackoffMs: 0", async () => {
    await using pids = await createTempDir();
    const session = await createRuntime({
      cwd: pids.path,
      metadataCacheFile: false,
      npxCacheFile: false,
      config: {
        mcpServers: {
          db: {
            command: process.execPath,
            args: [faultServerPath],
            env: { FAULT_MODE: "exit-on-initialize", FIXTURE_PID_DIR: pids.path },
          },
        },
        settings: { failureBackoffMs: 0 },
      },
    });
    runtime = session;
    await expect(session.call("db_echo", {})).rejects.toThrow(/fatal: cannot open database/);
    await expect(session.call("db_echo", {})).rejects.toThrow(/fatal: cannot open database/);
    expect(await recordedPids(pids.path)).toHaveLength(2);
    expect(session.servers.problems).toEqual([]);
  });
});

describe("a server that floods tools/list_changed", () => {
  it("never makes a tool vanish for a call, and coalesces the flood into few listings", async () => {
    runtime = new Runtime({
      servers: [node("flood", hostileServerPath, { HOSTILE_MODE: "flood-list-changed" })],
      connect: connectWith(),
    });
    expect(textOf(await runtime.call("flood_echo", { text: "warm" }))).toBe("warm");
    const flood = runtime.call("flood_flood", { count: 300 });
    let done = false;
    void flood.finally(() => {
      done = true;
    });
    const answers: string[] = [];
    // Calls keep resolving the tool by name while the notifications land and listings run.
    while (!done || answers.length < 20) {
      answers.push(textOf(await runtime.call("flood_echo", { text: `n${answers.length}` })));
    }
    expect(textOf(await flood)).toBe("sent 300");
    expect(answers).toEqual(answers.map((_, i) => `n${i}`));
    await runtime.listings.settled();
    const listings = Number(textOf(await runtime.call("flood_relists", {})));
    // The first listing plus the re-listings: a few, not one per notification.
    expect(listings).toBeGreaterThanOrEqual(2);
    expect(listings).toBeLessThanOrEqual(11);
  });

  it("keeps the old list when listing again fails, and says so", async () => {
    const notices: string[] = [];
    runtime = new Runtime({
      host: headlessHost({ notify: (message) => notices.push(message) }),
      servers: [node("flood", hostileServerPath, { HOSTILE_MODE: "flood-list-changed" })],
      connect: connectWith(),
    });
    expect(textOf(await runtime.call("flood_break", {}))).toBe("broken");
    await expect.poll(() => notices).toHaveLength(1);
    expect(notices[0]).toBe(
      'MCP server "flood" said its tools changed, but listing them again failed (flood: tools/list failed: MCP error -32603: tool registry is corrupt); the previous list stays in use.',
    );
    expect(textOf(await runtime.call("flood_echo", { text: "still here" }))).toBe("still here");
  });

  it("says nothing about a listing that the session's own shutdown cut short", async () => {
    await using markers = await createTempDir();
    const notices: string[] = [];
    const session = new Runtime({
      host: headlessHost({ notify: (message) => notices.push(message) }),
      servers: [
        node("flood", hostileServerPath, {
          HOSTILE_MODE: "flood-list-changed",
          HOSTILE_MARKER_DIR: markers.path,
        }),
      ],
      connect: connectWith(),
    });
    expect(textOf(await session.call("flood_stall", {}))).toBe("stalled");
    await expect.poll(() => existsSync(path.join(markers.path, "stalled-list"))).toBe(true);
    await session.shutdown();
    await session.listings.settled();
    expect(notices).toEqual([]);
  });
});

describe("a server that raises a stream of forms in one call", () => {
  it("gets five, then refusals, and the user one notice naming it", async () => {
    const notices: string[] = [];
    const forms: string[] = [];
    const host = {
      ...headlessHost({ notify: (message: string) => notices.push(message) }),
      hasUI: true,
      dialogs: {
        ...headlessHost().dialogs,
        select: async (title: string) => {
          forms.push(title);
          return undefined; // the user dismisses the form
        },
      },
    };
    // A frozen clock: the bucket refills by time, and no time passes here.
    const handlers = clientHandlersFor(host, { rateLimit: { now: () => 0 } });
    runtime = new Runtime({
      host,
      servers: [node("spam", hostileServerPath, { HOSTILE_MODE: "spam-elicitation" })],
      connect: (definition, signal) => connectServer(definition, { handlers }, signal),
    });
    const answers = textOf(await runtime.call("spam_ask", { count: 10 })).split("\n");
    expect(answers.filter((a) => !a.startsWith("error:"))).toHaveLength(5);
    expect(answers.filter((a) => a.startsWith("error:"))).toEqual(
      Array(5).fill(
        "error: MCP error -32600: client handler for elicitation/create failed: too many elicitation and sampling requests from this server (limit: 5 at once, then 5 a minute); try again later",
      ),
    );
    expect(forms).toHaveLength(5);
    expect(forms[0]).toContain('MCP server "spam" asks for input');
    expect(notices).toEqual([
      'MCP server "spam" asked for too many forms or sampling approvals; further requests are refused for now (limit: 5 at once, then 5 a minute).',
    ]);
  });
});
