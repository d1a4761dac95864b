/**
 * A task cut off by a reconnect in the middle of a session is followed on the
 * new connection at once, and its result is the original call's result — not
 * left for the next session. Against test-kit's Streamable HTTP server whose
 * task store outlives MCP sessions (the server the task-restart e2e uses).
 */
import { processEnvironment, type ServerDefinition } from "@pi-mcp-adapter/core";
import {
  createTempDir,
  type DurableTaskFixture,
  type FaultProxy,
  serveDurableTaskHttp,
  startFaultProxy,
  type TempDir,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdapterRuntime, createRuntime } from "../../src/index.js";
import type { TaskRecordEvent } from "../../src/observability/task-records.js";

let temp: TempDir;
let server: DurableTaskFixture;
let proxy: FaultProxy;
let runtime: AdapterRuntime;
let events: TaskRecordEvent[];
beforeEach(async () => {
  temp = await createTempDir();
  server = await serveDurableTaskHttp();
  proxy = await startFaultProxy(server.url);
  runtime = await createRuntime({
    cwd: temp.path,
    config: { mcpServers: { remote: { url: proxy.url } } },
    environment: processEnvironment({ agentDir: temp.join("agent") }),
    metadataCacheFile: false,
    npxCacheFile: false,
    serverLogFile: false,
  });
  runtime.tasks.setSession("session-1");
  events = [];
  runtime.tasks.onRecord((event) => events.push(event));
});
afterEach(async () => {
  await runtime.shutdown();
  await proxy.close();
  await server.close();
  await temp.remove();
});

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts `brew name`; resolves with the call's outcome promise once its task is on record. */
async function startBrew(name: string) {
  const call = runtime.call("remote_brew", { name }, { callId: `call-${name}` }).then(
    (result) => ({ result }),
    (error: Error) => ({ error }),
  );
  const started = await until(() => events.find((e) => e.kind === "started"), "the task's record");
  return { call, taskId: (started as Extract<TaskRecordEvent, { kind: "started" }>).record.taskId };
}

const textOf = (outcome: Awaited<Awaited<ReturnType<typeof startBrew>>["call"]>) =>
  "result" in outcome ? outcome.result.content.map((b) => ("text" in b ? b.text : "")).join("") : "";

describe("a task cut off by a reconnect mid-session", () => {
  it("is followed on the new connection and its result is the original call's", async () => {
    const { call, taskId } = await startBrew("tea");
    const before = runtime.servers.definition("remote");
    await runtime.reconnect("remote");
    // Still the session's running task, on the new connection.
    expect(runtime.tasks.of("remote")).toMatchObject([{ taskId, tool: "brew" }]);
    await server.finish("tea");
    const outcome = await call;
    expect("error" in outcome ? outcome.error.message : "").toBe("");
    expect(textOf(outcome)).toContain("brewed tea");
    expect(runtime.tasks.of("remote")).toEqual([]);
    // One record, ended by the call itself: nothing is left for a later session to follow.
    expect(events.map((e) => e.kind)).toEqual(["started", "ended"]);
    expect(runtime.servers.definition("remote")).toBe(before);
  });

  it("a reload that redefines the server follows the task on the new connection", async () => {
    const { call } = await startBrew("cocoa");
    const redefined: ServerDefinition = {
      ...(runtime.servers.definition("remote") as ServerDefinition),
      headers: { "X-Reloaded": "1" },
    };
    await runtime.replace([redefined]);
    await server.finish("cocoa");
    expect(textOf(await call)).toContain("brewed cocoa");
  });

  it("polls the network dropped: the task is followed again, its result is the call's", async () => {
    const { call, taskId } = await startBrew("chai");
    proxy.fail("tasks/get", { drop: true }, { drop: true });
    await until(
      () => (proxy.requests.filter((r) => r.outcome === "dropped").length === 2 ? true : undefined),
      "both polls to be dropped",
    );
    await server.finish("chai");
    const outcome = await call;
    expect("error" in outcome ? outcome.error.message : "").toBe("");
    expect(textOf(outcome)).toContain("brewed chai");
    expect(events.map((e) => e.kind)).toEqual(["started", "ended"]);
    expect((await server.tasks()).find((t) => t.taskId === taskId)?.status).toBe("completed");
  });

  it("the session ending still leaves the task running for a later session", async () => {
    const { call } = await startBrew("mate");
    await runtime.shutdown();
    const outcome = await call;
    expect("error" in outcome ? outcome.error.message : "").toContain("keeps running on the server");
    expect(events.map((e) => e.kind)).toEqual(["started"]);
  });
});
