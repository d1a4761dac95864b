/**
 * MCP Tasks against real servers: the published server-everything
 * (2025-11-25, SDK v1 on its side; `simulate-research-query` requires a
 * task), an SDK v1 fixture with an `optional` tool, and an SDK v2 fixture
 * speaking 2026-07-28 with the Tasks extension. A recorder in front of
 * server-everything (test-kit's wire-log proxy) shows what the server saw.
 */
import { fileURLToPath } from "node:url";
import {
  answerTo,
  createTempDir,
  readWireLog,
  serverEverythingPath,
  type TempDir,
  wireLogProxyPath,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ClientHandlers,
  connectServer,
  type ServerConnection,
  type TaskUpdate,
} from "../../src/index.js";
import { definition, failure } from "../helpers.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const v1TaskServer = fixture("v1-task-server.mjs");
const v2TaskServer = fixture("v2-task-server.mjs");

let temp: TempDir;
let open: ServerConnection | undefined;
beforeEach(async () => {
  temp = await createTempDir();
});
afterEach(async () => {
  await open?.close();
  open = undefined;
  await temp.remove();
});

/** A stdio server script behind the wire-log proxy, as a definition; `log` is the proxy's file. */
function recorded(name: string, script: string, extra: Partial<Parameters<typeof definition>[0]> = {}) {
  const log = temp.join(`${name}-wire.jsonl`);
  const args = [wireLogProxyPath, log, process.execPath, script];
  return { server: definition({ name, transport: "stdio", command: process.execPath, args, ...extra }), log };
}

/** server-everything, connected (with `handlers`) and listed unless `list` is false; returns it and the wire log. */
async function everything(handlers?: ClientHandlers, list = true) {
  const { server, log } = recorded("everything", serverEverythingPath);
  open = await connectServer(server, { handlers });
  if (list) await open.listTools();
  return { connection: open, log };
}

/** Whether the server answered a `tasks/cancel` of `taskId` without an error. */
async function cancelAnswered(log: string, taskId: string) {
  const answer = answerTo(await readWireLog(log), "tasks/cancel", { taskId });
  return answer !== undefined && answer.error === undefined;
}

/** Every update `onTask` hears, and a promise for the first one `matching` (to act mid-task). */
function taskUpdates(matching: (u: TaskUpdate) => boolean = () => false) {
  const updates: TaskUpdate[] = [];
  let seen!: (update: TaskUpdate) => void;
  const first = new Promise<TaskUpdate>((resolve) => {
    seen = resolve;
  });
  const onTask = (update: TaskUpdate) => {
    updates.push(update);
    if (matching(update)) seen(update);
  };
  return { updates, first, onTask };
}

describe("tasks on 2025-11-25 (server-everything)", () => {
  it("runs a tool that requires a task as one: follows its status and reads the result", async () => {
    const { connection, log } = await everything(undefined, false);
    const tools = await connection.listTools();
    expect(tools.find((t) => t.name === "simulate-research-query")?.execution).toEqual({
      taskSupport: "required",
    });
    const { updates, onTask } = taskUpdates();
    const result = await connection.callTool("simulate-research-query", { topic: "tides" }, { onTask });
    expect(JSON.stringify(result.content)).toContain("# Research Report: tides");
    const taskId = updates[0]!.taskId;
    expect(updates.every((u) => u.taskId === taskId)).toBe(true);
    expect(updates.map((u) => u.message)).toEqual(
      expect.arrayContaining(["Gathering sources...", "Analyzing content...", "Generating report..."]),
    );
    expect(updates.at(-1)?.status).toBe("completed");
    const wire = await readWireLog(log);
    const call = wire.find((e) => e.from === "client" && e.message.method === "tools/call");
    expect(call?.message.params?.task).toEqual({});
    // Followed through the status notifications the server sends (polls with tasks/get fill the gaps).
    const pushed = wire.filter(
      (e) => e.from === "server" && e.message.method === "notifications/tasks/status",
    );
    expect(pushed.length).toBeGreaterThan(0);
    expect(answerTo(wire, "tasks/result", { taskId })).toBeDefined();
    expect(connection.activeRequests).toBe(0);
  });

  it("answers input_required through the elicitation handler, and the answer shapes the result", async () => {
    const asked: string[] = [];
    const handlers: ClientHandlers = {
      elicitation: async (params) => {
        asked.push(params.message);
        return { action: "accept", content: { interpretation: "historical" } };
      },
    };
    const { connection } = await everything(handlers);
    const { updates, onTask } = taskUpdates();
    const result = await connection.callTool(
      "simulate-research-query",
      { topic: "tides", ambiguous: true },
      { onTask },
    );
    expect(asked).toEqual([
      expect.stringContaining('The research query "tides" could have multiple interpretations'),
    ]);
    expect(updates.map((u) => u.status)).toContain("input_required");
    expect(JSON.stringify(result.content)).toContain("# Research Report: tides (historical)");
  });

  it("an abort mid-run sends tasks/cancel, and the server cancels the task", async () => {
    const { connection, log } = await everything();
    const controller = new AbortController();
    const { first, onTask } = taskUpdates((u) => u.message === "Analyzing content...");
    const call = connection.callTool(
      "simulate-research-query",
      { topic: "tides" },
      { signal: controller.signal, onTask },
    );
    const { taskId } = await first;
    controller.abort();
    const error = await failure(call);
    expect(error.code).toBe("request_cancelled");
    const wire = await readWireLog(log);
    expect(answerTo(wire, "tasks/cancel", { taskId })).toMatchObject({
      result: { taskId, status: "cancelled" },
    });
  });

  it("a connection that has not listed tools runs the task from cached metadata (taskSupport given)", async () => {
    const { connection } = await everything(undefined, false);
    const result = await connection.callTool(
      "simulate-research-query",
      { topic: "kelp" },
      { taskSupport: "required" },
    );
    expect(JSON.stringify(result.content)).toContain("# Research Report: kelp");
  });
});

describe("tasks settings on 2025-11-25 (an SDK v1 fixture)", () => {
  const v1 = (extra = {}) => recorded("v1", v1TaskServer, extra).server;

  it('runs an optional tool as a plain call by default, and as a task with tasks: "always"', async () => {
    open = await connectServer(v1());
    await open.listTools();
    const plain = taskUpdates();
    expect((await open.callTool("count", { steps: 2 }, { onTask: plain.onTask })).content).toEqual([
      { type: "text", text: "counted to 2" },
    ]);
    expect(plain.updates).toEqual([]);
    await open.close();

    open = await connectServer(v1({ tasks: "always" }));
    await open.listTools();
    const task = taskUpdates();
    await open.callTool("count", { steps: 2 }, { onTask: task.onTask });
    expect(task.updates.map((u) => u.message)).toEqual(
      expect.arrayContaining(["step 1 of 2", "step 2 of 2"]),
    );
    // A tool without task support stays a plain call.
    expect((await open.callTool("plain", {})).content).toEqual([{ type: "text", text: "plain answer" }]);
  });

  it('a required tool runs as a task even with tasks: "never"; closing the connection cancels it', async () => {
    const { server, log } = recorded("v1", v1TaskServer, { tasks: "never" });
    open = await connectServer(server);
    await open.listTools();
    const { first, onTask } = taskUpdates((u) => u.message === "step 2 of 1000000");
    const call = failure(open.callTool("hold", {}, { onTask }));
    const { taskId } = await first;
    await open.close();
    const error = await call;
    expect(error.code).toBe("closed");
    expect(error.message).toContain(`task ${taskId} was cancelled`);
    expect(await cancelAnswered(log, taskId)).toBe(true);
  });

  it("a task past taskTimeoutMs is cancelled and fails as a timeout, whatever requestTimeoutMs says", async () => {
    const { server, log } = recorded("v1", v1TaskServer, { taskTimeoutMs: 400, requestTimeoutMs: 60_000 });
    open = await connectServer(server);
    await open.listTools();
    const { updates, onTask } = taskUpdates();
    const error = await failure(open.callTool("hold", {}, { onTask }));
    expect(error.code).toBe("request_timeout");
    expect(error.message).toMatch(/v1: tools\/call hold: task \w+ did not finish within taskTimeoutMs/);
    expect(await cancelAnswered(log, updates[0]!.taskId)).toBe(true);
    expect(updates.at(-1)?.status).toBe("cancelled");
  });
});

describe("tasks on 2026-07-28 (the Tasks extension, an SDK v2 fixture)", () => {
  const v2 = (extra = {}) => recorded("v2", v2TaskServer, { protocol: "2026-07-28", ...extra });

  it("offers a task on each call; the server makes one, and its result comes back", async () => {
    open = await connectServer(v2().server);
    expect(open.protocolVersion).toBe("2026-07-28");
    const { updates, onTask } = taskUpdates();
    const result = await open.callTool("research", { topic: "tides", stepMs: 20 }, { onTask });
    expect(result.content).toEqual([{ type: "text", text: "Report on tides" }]);
    // Polling sees the task's steps in order; a 20 ms step may pass between two polls on a busy machine.
    const steps = ["Gathering sources...", "Writing report...", "Done"];
    const order = [...new Set(updates.map((u) => steps.indexOf(u.message ?? "")).filter((i) => i >= 0))];
    expect(order.at(-1)).toBe(2);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The server answers other calls in-line.
    expect((await open.callTool("echo", { text: "hi" }, { onTask })).content).toEqual([
      { type: "text", text: "hi" },
    ]);
  });

  it("hands the task's input requests to the elicitation handler and sends the answer with tasks/update", async () => {
    const asked: string[] = [];
    const handlers: ClientHandlers = {
      elicitation: async (params) => {
        asked.push(params.message);
        return { action: "accept", content: { sense: "animal" } };
      },
    };
    open = await connectServer(v2().server, { handlers });
    const result = await open.callTool("research", { topic: "python", ambiguous: true, stepMs: 20 });
    expect(asked).toEqual(['Which "python" do you mean?']);
    expect(result.content).toEqual([{ type: "text", text: "Report on python (animal)" }]);
  });

  it("time a question stays open does not count against taskTimeoutMs", async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handlers: ClientHandlers = {
      elicitation: async () => {
        await answered;
        return { action: "accept", content: { sense: "language" } };
      },
    };
    open = await connectServer(v2({ taskTimeoutMs: 2_000 }).server, { handlers });
    const { first, onTask } = taskUpdates((u) => u.status === "input_required");
    const call = open.callTool("research", { topic: "python", ambiguous: true, stepMs: 20 }, { onTask });
    await first;
    // The user takes longer than the task may run; the clock stands still meanwhile.
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 2_500));
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    release();
    expect((await call).content).toEqual([{ type: "text", text: "Report on python (language)" }]);
  });

  it("an abort sends tasks/cancel", async () => {
    const { server, log } = v2();
    open = await connectServer(server);
    const controller = new AbortController();
    const { first, onTask } = taskUpdates((u) => u.message === "Gathering sources...");
    const call = open.callTool(
      "research",
      { topic: "tides", stepMs: 5_000 },
      { signal: controller.signal, onTask },
    );
    const { taskId } = await first;
    controller.abort();
    expect((await failure(call)).code).toBe("request_cancelled");
    expect(await cancelAnswered(log, taskId)).toBe(true);
  });

  it('with tasks: "never" no call offers a task, and the server answers in-line', async () => {
    open = await connectServer(v2({ tasks: "never" }).server);
    const { updates, onTask } = taskUpdates();
    const result = await open.callTool("research", { topic: "tides" }, { onTask });
    expect(result.content).toEqual([{ type: "text", text: "Report on tides (in-line)" }]);
    expect(updates).toEqual([]);
  });
});
