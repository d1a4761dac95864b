/**
 * Durable MCP tasks through the runtime, against test-kit's Streamable HTTP
 * server whose task store outlives MCP sessions: a task a call starts is on
 * record (with the model's call id, and as durable) for the host and in the
 * agent dir's journal (user-only); a second runtime — a new Pi process —
 * follows it again from the record, lists it as running, and hands its
 * result (or its cancellation) to the host as the call's outcome; a task on
 * a session's own stdio server is reported lost.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { processEnvironment } from "@pi-mcp-adapter/core";
import {
  createTempDir,
  type DurableTaskFixture,
  serveDurableTaskHttp,
  stdioFixtureServerPath,
  type TempDir,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdapterRuntime, createRuntime } from "../../src/index.js";
import type { TaskRecord, TaskRecordEvent } from "../../src/observability/task-records.js";

let temp: TempDir;
let server: DurableTaskFixture;
const runtimes: AdapterRuntime[] = [];
beforeEach(async () => {
  temp = await createTempDir();
  server = await serveDurableTaskHttp();
});
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.shutdown();
  await server.close();
  await temp.remove();
});

const agentDir = () => temp.join("agent");
const journalFile = () => path.join(agentDir(), "mcp-tasks.json");

/** A runtime as one Pi process makes it: the fixture as `remote`, the temp agent dir, its record events. */
async function process_(session = "session-1") {
  const runtime = await createRuntime({
    cwd: temp.path,
    config: {
      mcpServers: {
        remote: { url: server.url },
        local: { command: process.execPath, args: [stdioFixtureServerPath] },
      },
    },
    environment: processEnvironment({ agentDir: agentDir() }),
    metadataCacheFile: false,
    npxCacheFile: false,
    serverLogFile: false,
  });
  runtimes.push(runtime);
  runtime.tasks.setSession(session);
  const events: TaskRecordEvent[] = [];
  runtime.tasks.onRecord((event) => events.push(event));
  return { runtime, events };
}

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts `brew name` in a first process; resolves with its record once the task exists. */
async function startBrew(name: string): Promise<TaskRecord> {
  const first = await process_();
  void first.runtime.call("remote_brew", { name }, { callId: `call-${name}` }).catch(() => {});
  const started = await until(() => first.events.find((e) => e.kind === "started"), "the task's record");
  return (started as Extract<TaskRecordEvent, { kind: "started" }>).record;
}

const outcomeOf = (events: TaskRecordEvent[]) =>
  events.find((e): e is Extract<TaskRecordEvent, { kind: "ended" }> => e.kind === "ended")?.outcome;

describe("durable task records", () => {
  it("a task a call starts is on record with its call id, as durable, and in the user-only journal", async () => {
    const record = await startBrew("tea");
    expect(record).toMatchObject({
      server: "remote",
      tool: "brew",
      revision: "2025-11-25",
      callId: "call-tea",
      session: "session-1",
      durable: true,
    });
    const journal = await until(async () => {
      const text = await readFile(journalFile(), "utf8").catch(() => "");
      return text.includes(record.taskId) ? text : undefined;
    }, "the journal to hold the task");
    expect(JSON.parse(journal).tasks[0]).toEqual(record);
    expect((await stat(journalFile())).mode & 0o777).toBe(0o600);
  });

  it("a new process follows the task again: listed as running, its result handed over as the call's outcome", async () => {
    const record = await startBrew("tea");
    const second = await process_();
    await second.runtime.tasks.resume([record]);
    expect(second.runtime.tasks.of("remote")).toMatchObject([{ taskId: record.taskId, tool: "brew" }]);
    await server.finish("tea");
    await second.runtime.tasks.settled();
    expect(outcomeOf(second.events)).toEqual({
      status: "completed",
      text: "brewed tea",
      isError: false,
      tool: "brew",
      server: "remote",
      callId: "call-tea",
    });
    expect(second.runtime.tasks.of("remote")).toEqual([]);
    // Ended: the journal no longer holds it.
    await until(async () => {
      const text = await readFile(journalFile(), "utf8");
      return text.includes(record.taskId) ? undefined : true;
    }, "the journal to drop the task");
  });

  it("a task that finished while away: resume resolves once its result is handed over", async () => {
    const record = await startBrew("cocoa");
    await server.finish("cocoa");
    const second = await process_();
    await second.runtime.tasks.resume([record]);
    expect(outcomeOf(second.events)).toMatchObject({ status: "completed", text: "brewed cocoa" });
  });

  it("shutting a process down leaves its task running and on record (a later session follows it)", async () => {
    const first = await process_();
    const call = first.runtime.call("remote_brew", { name: "rooibos" }, { callId: "call-r" });
    const failed = call.then(
      () => undefined,
      (error: Error) => error,
    );
    await until(() => first.events.find((e) => e.kind === "started"), "the task's record");
    await first.runtime.shutdown();
    expect((await failed)?.message).toContain("keeps running on the server");
    expect(first.events.map((e) => e.kind)).toEqual(["started"]);
    const [task] = await server.tasks();
    expect(task?.status).toBe("working");
    const journal = JSON.parse(await readFile(journalFile(), "utf8"));
    expect(journal.tasks).toMatchObject([{ taskId: task!.taskId, callId: "call-r" }]);
  });

  it("the journal alone brings back the session's tasks (no entries from the host)", async () => {
    const record = await startBrew("mate");
    await until(async () => {
      const text = await readFile(journalFile(), "utf8").catch(() => "");
      return text.includes(record.taskId) ? true : undefined;
    }, "the journal to hold the task");
    const other = await process_("another-session");
    await other.runtime.tasks.resume([]);
    expect(other.runtime.tasks.of("remote")).toEqual([]);
    const same = await process_("session-1");
    await same.runtime.tasks.resume([]);
    expect(same.runtime.tasks.of("remote")).toMatchObject([{ taskId: record.taskId }]);
  });

  it("cancelling a task followed again cancels it on the server", async () => {
    const record = await startBrew("coffee");
    const second = await process_();
    await second.runtime.tasks.resume([record]);
    expect(second.runtime.tasks.cancel("remote", record.taskId)).toBe(true);
    await second.runtime.tasks.settled();
    expect(outcomeOf(second.events)).toMatchObject({
      status: "cancelled",
      isError: true,
      callId: "call-coffee",
    });
    await until(async () => {
      const task = (await server.tasks()).find((t) => t.taskId === record.taskId);
      return task?.status === "cancelled" ? task : undefined;
    }, "the server to cancel the task");
    expect(second.runtime.tasks.cancel("remote", "no-such-task")).toBe(false);
  });

  it("a task of a session's own stdio server is reported lost, saying why; bad entries are skipped", async () => {
    const second = await process_();
    const stdio = {
      taskId: "t1",
      server: "local",
      tool: "slow",
      revision: "2025-11-25",
      startedAt: Date.now(),
    };
    await second.runtime.tasks.resume([{ ...stdio, durable: false }, { taskId: 5 }, null, "junk"]);
    const outcome = outcomeOf(second.events);
    expect(outcome?.status).toBe("lost");
    expect(outcome?.text).toContain("local ran as this session's own process (stdio)");
    expect(second.events).toHaveLength(1);
  });
});
