import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import {
  createFixtureServer,
  createTempDir,
  serveOAuthProtectedMcp,
  serverEverythingPath,
  serveStreamableHttp,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/create-runtime.js";
import { type Host, headlessHost, NO_DIALOGS } from "../../src/host.js";
import { CallStats } from "../../src/observability/stats-observer.js";
import { SessionTrace } from "../../src/observability/trace-observer.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

const textOf = (outcome: { content: Array<{ type: string; text?: string }> }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

const lines = async (file: string) =>
  (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("session trace", () => {
  it("records calls, connections and refusals but no token, argument, result, login or URL", async () => {
    await using dir = await createTempDir();
    const BEARER = "sk-bearer-Zq8v1Lx";
    const ARG = "password=hunter2-ARG";
    const RESULT = "result-body-Kp3";
    await using open = await serveStreamableHttp(() =>
      createFixtureServer({
        tools: [
          { name: "echo", annotations: { readOnlyHint: true } },
          {
            name: "secretive",
            annotations: { readOnlyHint: true },
            handler: () => ({ content: [{ type: "text", text: RESULT }] }),
          },
          { name: "rm_rf", annotations: { destructiveHint: true } },
        ],
      }),
    );
    await using as = await serveOAuthProtectedMcp({
      makeServer: () =>
        createFixtureServer({ tools: [{ name: "echo", annotations: { readOnlyHint: true } }] }),
    });
    // A URL with credentials (fetch refuses it, so this server fails to connect: the error path).
    const credUrl = new URL(open.url);
    credUrl.username = "alice";
    credUrl.password = "url-pass-W9";
    credUrl.searchParams.set("key", "qs-key-T4");
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        settings: {
          oauthCredentialStore: "memory",
          approveTools: "destructive",
          trace: { enabled: true },
        },
        mcpServers: {
          open: { url: open.url, headers: { Authorization: `Bearer ${BEARER}` } },
          creds: { url: credUrl.toString() },
          docs: { url: as.url },
        },
      },
      metadataCacheFile: false,
    });
    const trace = runtime.trace as SessionTrace;
    let token = "";
    let code = "";
    try {
      expect(textOf(await runProxyRequest(runtime, { tool: "open_echo", args: { secret: ARG } }))).toContain(
        ARG,
      );
      expect(textOf(await runProxyRequest(runtime, { tool: "open_secretive", args: {} }))).toBe(RESULT);
      // Headless: a destructive tool is refused.
      const refused = await runtime.call("open_rm_rf", { path: ARG });
      expect(refused.isError).toBe(true);
      await expect(runProxyRequest(runtime, { tool: "creds_echo", args: { secret: ARG } })).rejects.toThrow();
      // An OAuth login, then a call with the token it got.
      const started = textOf(await runProxyRequest(runtime, { action: "auth-start", server: "docs" }));
      const landedOn = await as.approve(started.split("\n").find((l) => l.startsWith("http")) as string);
      await runProxyRequest(runtime, {
        action: "auth-complete",
        server: "docs",
        args: { redirectUrl: landedOn },
      });
      code = new URL(landedOn).searchParams.get("code") ?? "";
      expect(code).not.toBe("");
      await runtime.reconnect("docs");
      await runProxyRequest(runtime, { tool: "docs_echo", args: { text: ARG } });
      token = (as.mcpAuthorizations.at(-1) ?? "").replace(/^Bearer /, "");
      // The same login through the logins API (as /mcp-auth and /mcp-adapter logout use it).
      await (await runtime.oauth?.logins())?.logout("docs");
      expect(token.length).toBeGreaterThan(8);
    } finally {
      await runtime.shutdown();
    }

    expect(path.dirname(trace.file)).toBe(path.join(dir.path, ".pi", "mcp-traces"));
    expect((await stat(trace.file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(trace.file))).mode & 0o777).toBe(0o700);
    const text = await readFile(trace.file, "utf8");
    for (const secret of [BEARER, ARG, "hunter2", RESULT, "url-pass-W9", "alice", "qs-key-T4", token, code]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/https?:/);
    const events = await lines(trace.file);
    expect(events[0]).toMatchObject({ event: "session", state: "start" });
    expect(events.at(-1)).toMatchObject({ event: "session", state: "end" });
    expect(events).toContainEqual(
      expect.objectContaining({
        event: "call",
        server: "open",
        tool: "echo",
        origin: "proxy",
        outcome: "ok",
      }),
    );
    const echo = events.find((e) => e.event === "call" && e.tool === "echo") as Record<string, number>;
    expect(echo.bytesIn).toBe(JSON.stringify({ secret: ARG }).length);
    expect(echo.bytesOut).toBeGreaterThan(0);
    expect(typeof echo.durationMs).toBe("number");
    expect(events).toContainEqual(
      expect.objectContaining({ event: "approval", server: "open", tool: "rm_rf", state: "deny" }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: "connect", server: "creds", state: "failed" }),
    );
    expect(events).toContainEqual(expect.objectContaining({ event: "call", server: "docs", outcome: "ok" }));
    for (const step of ["auth-start", "auth-complete"]) {
      expect(events).toContainEqual(
        expect.objectContaining({ event: "auth", server: "docs", state: step, outcome: "ok" }),
      );
    }
    expect(events).toContainEqual(expect.objectContaining({ event: "list", server: "open", outcome: "ok" }));
    expect(events).toContainEqual(
      expect.objectContaining({ event: "auth", server: "docs", state: "logout", outcome: "ok" }),
    );
  });

  it("stops at maxEvents with a final marker", async () => {
    await using dir = await createTempDir();
    const trace = new SessionTrace({ cwd: dir.path, file: "t.jsonl", maxEvents: 5 });
    for (let i = 0; i < 20; i++) trace.record({ event: "call", server: "s", tool: `t${i}` });
    trace.close();
    const events = await lines(dir.join("t.jsonl"));
    expect(events).toHaveLength(6);
    expect(events.slice(0, 5).map((e) => e.event)).toEqual(["session", "call", "call", "call", "call"]);
    expect(events[5]).toMatchObject({ event: "trace_stopped", reason: "maxEvents", events: 5 });
  });

  it("stops before maxBytes and never writes a field that is not a plain name", async () => {
    await using dir = await createTempDir();
    const trace = new SessionTrace({ cwd: dir.path, file: "t.jsonl", maxBytes: 600 });
    trace.record({ event: "error", server: "https://user:pw@host/x", code: "a sentence with spaces" });
    for (let i = 0; i < 50; i++) trace.record({ event: "call", server: "s", tool: "t" });
    trace.close();
    const text = await readFile(dir.join("t.jsonl"), "utf8");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(600);
    expect(text).not.toContain("pw@host");
    expect(text).not.toContain("sentence");
    expect((await lines(dir.join("t.jsonl"))).at(-1)).toMatchObject({
      event: "trace_stopped",
      reason: "maxBytes",
    });
  });
});

describe("call stats", () => {
  it("counts calls, errors and latencies per tool, and keeps them in the configured file", async () => {
    await using dir = await createTempDir();
    await using server = await serveStreamableHttp(() =>
      createFixtureServer({
        tools: [
          { name: "echo" },
          { name: "boom", handler: () => ({ isError: true, content: [{ type: "text", text: "no" }] }) },
          {
            name: "slow",
            // Answers only when cancelled: the request deadline, not a race with a timer, ends it.
            handler: (_args, extra) =>
              new Promise((resolve) =>
                extra.signal.addEventListener("abort", () => resolve({ content: [] })),
              ),
          },
        ],
      }),
    );
    const config = {
      // Long enough for listing on a loaded machine; the slow call still ends at it.
      settings: { captureStats: { file: "stats/mcp-stats.json" }, requestTimeoutMs: 2000 },
      mcpServers: { s: { url: server.url } },
    };
    const runtime = await createRuntime({ cwd: dir.path, config, metadataCacheFile: false });
    try {
      for (const text of ["a", "bb", "ccc"]) await runtime.call("s_echo", { text });
      await runtime.call("s_boom", {});
      await expect(runtime.call("s_slow", {})).rejects.toThrow(/timed out after 2000 ms/);
      const rows = runtime.stats?.summary() ?? [];
      expect(rows.map((r) => [r.tool, r.calls, r.errors, r.timeouts])).toEqual([
        ["boom", 1, 1, 0],
        ["echo", 3, 0, 0],
        ["slow", 1, 1, 1],
      ]);
      const echo = rows[1];
      expect(echo?.bytesIn).toBe(['{"text":"a"}', '{"text":"bb"}', '{"text":"ccc"}'].join("").length);
      expect(echo?.p50Ms).toBeGreaterThan(0);
      expect(echo?.p95Ms).toBeGreaterThanOrEqual(echo?.p50Ms ?? 0);
      runtime.stats?.recordSampling("s", { input: 10, output: 4 });
    } finally {
      await runtime.shutdown();
    }
    const saved = JSON.parse(await readFile(dir.join("stats/mcp-stats.json"), "utf8"));
    expect(saved.tools.find((t: { tool: string }) => t.tool === "echo").calls).toBe(3);
    // A later session (or the CLI) starts from the file.
    const again = await createRuntime({ cwd: dir.path, config, metadataCacheFile: false });
    try {
      const rows = again.stats?.summary() ?? [];
      expect(rows.find((r) => r.tool === "echo")?.calls).toBe(3);
      expect(rows.find((r) => r.tool === "(sampling)")).toMatchObject({
        samplingInputTokens: 10,
        samplingOutputTokens: 4,
      });
    } finally {
      await again.shutdown();
    }
  });

  it("two sessions sharing a stats file add up instead of overwriting each other", async () => {
    await using dir = await createTempDir();
    const file = dir.join("stats.json");
    const record = (name: string) =>
      ({
        server: "s",
        name,
        kind: "tool",
        origin: "proxy",
        argsBytes: 10,
        resultBytes: 20,
        durationMs: 5,
        outcome: "ok",
      }) as const;
    const first = new CallStats({ file });
    const second = new CallStats({ file });
    first.observer(record("a"));
    first.observer(record("a"));
    second.observer(record("a"));
    second.observer(record("b"));
    await Promise.all([first.flush(), second.flush()]);
    await first.flush(); // nothing new: no change
    const saved = JSON.parse(await readFile(file, "utf8")) as {
      tools: { tool: string; calls: number; bytesOut: number }[];
    };
    expect(saved.tools.map((t) => [t.tool, t.calls, t.bytesOut]).sort()).toEqual([
      ["a", 3, 60],
      ["b", 1, 20],
    ]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // After its write a session shows the other's counts too.
    expect(new CallStats({ file }).summary().map((r) => r.calls)).toEqual([3, 1]);
  });

  it("counts the tokens of a server's sampling request and traces it without its prompt or answer", async () => {
    await using dir = await createTempDir();
    const host: Host = {
      ...headlessHost(),
      hasUI: true,
      dialogs: { ...NO_DIALOGS, select: async () => "Allow once" },
      sample: async () => ({
        role: "assistant",
        content: { type: "text", text: "answer-body-Z2" },
        model: "test/echo",
        usage: { inputTokens: 20, outputTokens: 6 },
      }),
    };
    const runtime = await createRuntime({
      cwd: dir.path,
      host,
      config: {
        settings: { captureStats: true, trace: { enabled: true, file: "t.jsonl" } },
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      },
      metadataCacheFile: false,
    });
    try {
      const result = await runtime.call("everything_trigger-sampling-request", { prompt: "prompt-body-Y1" });
      expect(result.isError).toBe(false);
      expect(runtime.stats?.summary().find((r) => r.tool === "(sampling)")).toMatchObject({
        server: "everything",
        samplingInputTokens: 20,
        samplingOutputTokens: 6,
      });
    } finally {
      await runtime.shutdown();
    }
    const text = await readFile(dir.join("t.jsonl"), "utf8");
    expect(text).toContain('"event":"sampling","server":"everything","outcome":"ok"');
    expect(text).not.toContain("prompt-body-Y1");
    expect(text).not.toContain("answer-body-Z2");
  });

  it("is off without captureStats, and so is the trace without trace.enabled", async () => {
    await using dir = await createTempDir();
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { mcpServers: {} },
      metadataCacheFile: false,
    });
    expect(runtime.stats).toBeUndefined();
    expect(runtime.trace).toBeUndefined();
    await runtime.shutdown();
  });
});
