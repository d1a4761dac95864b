/**
 * Following a task again by its id (`ServerConnection.resumeTask`) from
 * another connection, as a new Pi process does after a restart: over
 * Streamable HTTP against servers whose task store outlives every MCP
 * session — test-kit's SDK v1 fixture (2025-11-25) and the SDK v2 fixture
 * speaking 2026-07-28 with the Tasks extension.
 */
import { fileURLToPath } from "node:url";
import { type DurableTaskFixture, serveDurableTaskHttp } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection, type TaskUpdate } from "../../src/index.js";
import { definition, failure, startV2Http } from "../helpers.js";

const v2TaskServer = fileURLToPath(new URL("../fixtures/v2-task-server.mjs", import.meta.url));

const opened: ServerConnection[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const connection of opened.splice(0)) await connection.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function connect(url: string, protocol?: "2026-07-28") {
  const connection = await connectServer(
    definition({ name: "remote", transport: "http", url, ...(protocol ? { protocol } : {}) }),
  );
  opened.push(connection);
  await connection.listTools(); // 2025-11-25: a tool runs as a task as its listed `taskSupport` says
  return connection;
}

/** Resolves with the first update `onTask` hears. */
function firstUpdate() {
  let heard!: (update: TaskUpdate) => void;
  const first = new Promise<TaskUpdate>((resolve) => {
    heard = resolve;
  });
  return { first, onTask: (update: TaskUpdate) => heard(update) };
}

async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("resuming a task on 2025-11-25 (a server-wide task store over HTTP)", () => {
  let server: DurableTaskFixture;
  const start = async () => {
    server = await serveDurableTaskHttp();
    cleanups.push(() => server.close());
  };

  it("another connection follows the task by its id to its result", async () => {
    await start();
    const first = await connect(server.url);
    const { first: started, onTask } = firstUpdate();
    const original = first.callTool("brew", { name: "tea" }, { onTask });
    const { taskId, revision } = await started;
    expect(revision).toBe("2025-11-25");

    const second = await connect(server.url);
    const statuses: string[] = [];
    const resumed = second.resumeTask("brew", taskId, revision, {
      onTask: (u) => statuses.push(`${u.taskId}:${u.status}`),
    });
    await waitFor(async () => (statuses.length ? true : undefined), "the resumed task's first status");
    await server.finish("tea");
    expect((await resumed).content).toEqual([{ type: "text", text: "brewed tea" }]);
    expect(statuses[0]).toBe(`${taskId}:working`);
    expect((await original).content).toEqual([{ type: "text", text: "brewed tea" }]);
  });

  it("aborting the resumed call cancels the task on the server", async () => {
    await start();
    const first = await connect(server.url);
    const { first: started, onTask } = firstUpdate();
    void first.callTool("brew", { name: "coffee" }, { onTask }).catch(() => {});
    const { taskId, revision } = await started;
    const second = await connect(server.url);
    const abort = new AbortController();
    const resumed = firstUpdate();
    const call = second.resumeTask("brew", taskId, revision, {
      signal: abort.signal,
      onTask: resumed.onTask,
    });
    await resumed.first;
    abort.abort();
    expect((await failure(call)).code).toBe("request_cancelled");
    const task = await waitFor(async () => {
      const found = (await server.tasks()).find((t) => t.taskId === taskId);
      return found?.status === "cancelled" ? found : undefined;
    }, "the server to cancel the task");
    expect(task.status).toBe("cancelled");
  });

  it("closing the connection leaves the task running on the server (no tasks/cancel); the call fails saying so", async () => {
    await start();
    const first = await connect(server.url);
    const { first: started, onTask } = firstUpdate();
    const call = first.callTool("brew", { name: "chai" }, { onTask });
    const { taskId, revision } = await started;
    const failed = failure(call); // the call ends while the connection closes
    await first.close();
    const error = await failed;
    expect(error.code).toBe("task_detached");
    expect(error.message).toContain(`task ${taskId} keeps running on the server`);
    expect((await server.tasks()).find((t) => t.taskId === taskId)?.status).toBe("working");
    const second = await connect(server.url);
    const resumed = second.resumeTask("brew", taskId, revision);
    await server.finish("chai");
    expect((await resumed).content).toEqual([{ type: "text", text: "brewed chai" }]);
  });

  it("a task id the server does not know fails naming the task", async () => {
    await start();
    const connection = await connect(server.url);
    const error = await failure(connection.resumeTask("brew", "no-such-task", "2025-11-25"));
    expect(error.message).toContain("no-such-task");
  });

  it("a task of the other protocol is refused with a message saying so", async () => {
    await start();
    const connection = await connect(server.url);
    const error = await failure(connection.resumeTask("brew", "t1", "2026-07-28"));
    expect(error.message).toContain("was started on the 2026-07-28 task protocol");
  });
});

describe("resuming a task on 2026-07-28 (the Tasks extension over HTTP)", () => {
  it("another connection follows the task by its id to its result", async () => {
    const server = await startV2Http(true, v2TaskServer);
    cleanups.push(() => server.close());
    const first = await connect(server.url, "2026-07-28");
    const { first: started, onTask } = firstUpdate();
    const original = first.callTool("research", { topic: "tides", stepMs: 300 }, { onTask });
    const { taskId, revision } = await started;
    expect(revision).toBe("2026-07-28");
    const second = await connect(server.url, "2026-07-28");
    const resumed = await second.resumeTask("research", taskId, revision);
    expect(resumed.content).toEqual([{ type: "text", text: "Report on tides" }]);
    expect((await original).content).toEqual([{ type: "text", text: "Report on tides" }]);
  });
});
