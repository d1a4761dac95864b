/**
 * MCP Tasks through the runtime, against the published server-everything
 * over stdio (its `simulate-research-query` requires a task): the result
 * goes through the pipeline like any call's, the task shows in status
 * snapshots and `mcp({})` while it runs, its clarification round uses the
 * host's dialogs, and shutdown cancels a task still running (the wire-log
 * proxy in front of the server shows the server answered `tasks/cancel`).
 */
import {
  answerTo,
  createTempDir,
  readWireLog,
  serverEverythingPath,
  type TempDir,
  wireLogProxyPath,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FORM_START } from "../../src/client-features/elicitation-form.js";
import {
  type AdapterRuntime,
  type CallResult,
  createRuntime,
  type Host,
  headlessHost,
  runProxyRequest,
} from "../../src/index.js";
import type { McpTaskStatus } from "../../src/observability/status-events.js";
import type { McpStatusSnapshot } from "../../src/startup.js";

const TOOL = "everything_simulate-research-query";

let temp: TempDir;
let open: AdapterRuntime | undefined;
beforeEach(async () => {
  temp = await createTempDir();
});
afterEach(async () => {
  await open?.shutdown();
  open = undefined;
  await temp.remove();
});

/** Status snapshots as the host receives them, and a wait for the first running task `matching`. */
function statusRecorder() {
  const snapshots: McpStatusSnapshot[] = [];
  const waiters: { matching: (t: McpTaskStatus) => boolean; resolve: (t: McpTaskStatus) => void }[] = [];
  const status = (snapshot: McpStatusSnapshot) => {
    snapshots.push(snapshot);
    for (const task of snapshot.servers.flatMap((s) => s.tasks ?? [])) {
      for (const waiter of waiters.filter((w) => w.matching(task))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(task);
      }
    }
  };
  const task = (matching: (t: McpTaskStatus) => boolean) =>
    new Promise<McpTaskStatus>((resolve) => waiters.push({ matching, resolve }));
  return { snapshots, status, task };
}

async function everything(host: Host, settings: Record<string, unknown> = {}) {
  const log = temp.join("wire.jsonl");
  open = await createRuntime({
    cwd: temp.path,
    config: {
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [wireLogProxyPath, log, process.execPath, serverEverythingPath],
        },
      },
      settings,
    },
    metadataCacheFile: false,
    npxCacheFile: false,
    host,
  });
  return { runtime: open, log };
}

const text = (result: Pick<CallResult, "content">) =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe("MCP tasks through the runtime", () => {
  it("a task call's result comes through the pipeline; while it runs, status and mcp({}) show it", async () => {
    const recorder = statusRecorder();
    const { runtime } = await everything(headlessHost({ status: recorder.status }));
    const call = runtime.call(TOOL, { topic: "tides" });
    const running = await recorder.task((t) => t.message === "Analyzing content...");
    expect(running).toMatchObject({ tool: "simulate-research-query", status: "working" });
    const status = await runProxyRequest(runtime, {});
    expect(text(status)).toMatch(/- everything: connected, \d+ tools/);
    expect(text(status)).toMatch(
      new RegExp(
        `\\n  task simulate-research-query working: Analyzing content\\.\\.\\. \\(\\d+s, id ${running.taskId}\\)`,
      ),
    );
    const result = await call;
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("# Research Report: tides");
    expect(result.details).toMatchObject({
      server: "everything",
      name: "simulate-research-query",
      kind: "tool",
    });
    // Ended: no longer listed.
    expect(recorder.snapshots.at(-1)?.servers[0]?.tasks).toBeUndefined();
    expect(runtime.listings.summaries()[0]?.tasks).toBeUndefined();
  });

  it("the clarification the task asks for is a form in the host's dialogs, and the answer shapes the result", async () => {
    const asked: string[] = [];
    const answers = [FORM_START[0], "Historical perspective", "Send"];
    const host: Host = {
      ...headlessHost(),
      hasUI: true,
      dialogs: {
        ...headlessHost().dialogs,
        select: async (title, choices) => {
          asked.push(`${title} ${choices.join("|")}`);
          return answers.shift();
        },
      },
    };
    const { runtime } = await everything(host);
    const result = await runtime.call(TOOL, { topic: "tides", ambiguous: true });
    expect(asked[0]).toContain('MCP server "everything" asks for input:');
    expect(asked[0]).toContain('The research query "tides" could have multiple interpretations');
    expect(asked[1]).toContain("Historical perspective");
    expect(text(result)).toContain("# Research Report: tides (historical)");
  });

  it("shutdown cancels a task still running: the server answers tasks/cancel", async () => {
    const recorder = statusRecorder();
    const { runtime, log } = await everything(headlessHost({ status: recorder.status }));
    const call = runtime.call(TOOL, { topic: "tides" }).then(
      () => undefined,
      (error: unknown) => error as Error & { code?: string },
    );
    const { taskId } = await recorder.task((t) => t.status === "working");
    await runtime.shutdown();
    open = undefined;
    expect((await call)?.code).toBe("closed");
    const answer = answerTo(await readWireLog(log), "tasks/cancel", { taskId });
    expect(answer).toMatchObject({ result: { taskId, status: "cancelled" } });
  });

  it("settings.taskTimeoutMs bounds a task of a server without its own: it is cancelled and the call times out", async () => {
    const { runtime, log } = await everything(headlessHost(), { taskTimeoutMs: 500 });
    const error = await runtime.call(TOOL, { topic: "tides" }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error?.code).toBe("request_timeout");
    expect(error?.message).toMatch(/did not finish within taskTimeoutMs; it was cancelled/);
    const cancel = (await readWireLog(log)).find(
      (e) => e.from === "client" && e.message.method === "tasks/cancel",
    );
    expect(cancel).toBeDefined();
  });
});
