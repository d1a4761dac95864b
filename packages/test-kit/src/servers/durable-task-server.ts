/**
 * A Streamable HTTP server (SDK v1, 2025-11-25 experimental tasks) whose task
 * store belongs to the server, not to an MCP session: a task started by one
 * client (one Pi process) can be polled, read and cancelled by the next, as
 * with a real remote server. The test drives when tasks end.
 *
 * Tools: `brew {name}` (taskSupport "required") works until the test calls
 * `finish(name)`, then completes with "brewed <name>"; `echo {text}` answers
 * in-line.
 */
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { serveSdkHttp } from "./sdk-http-server.js";

/** Every session shares one store, and a task is every session's (the SDK's own binds it to one). */
class ServerWideTaskStore extends InMemoryTaskStore {
  override createTask(...[params, requestId, request]: Parameters<InMemoryTaskStore["createTask"]>) {
    return super.createTask(params, requestId, request);
  }
  override getTask(taskId: string) {
    return super.getTask(taskId);
  }
  override storeTaskResult(...[taskId, status, result]: Parameters<InMemoryTaskStore["storeTaskResult"]>) {
    return super.storeTaskResult(taskId, status, result);
  }
  override getTaskResult(taskId: string) {
    return super.getTaskResult(taskId);
  }
  override updateTaskStatus(...[taskId, status, message]: Parameters<InMemoryTaskStore["updateTaskStatus"]>) {
    return super.updateTaskStatus(taskId, status, message);
  }
  override listTasks(cursor?: string) {
    return super.listTasks(cursor);
  }
}

export interface DurableTaskFixture extends AsyncDisposable {
  url: string;
  /** Every task the server knows, oldest first. */
  tasks(): Promise<Task[]>;
  /** Completes the `brew` task of `name` (once it exists). */
  finish(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function serveDurableTaskHttp(): Promise<DurableTaskFixture> {
  const store = new ServerWideTaskStore();
  const queue = new InMemoryTaskMessageQueue();
  /** The task id of each `brew` name. */
  const brewing = new Map<string, string>();
  const makeServer = () => {
    const server = new McpServer(
      { name: "durable-task-fixture", version: "1.0.0" },
      {
        capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
        taskStore: store,
        taskMessageQueue: queue,
      },
    );
    server.experimental.tasks.registerToolTask(
      "brew",
      {
        description: "Brew something slowly (a task the test finishes).",
        inputSchema: { name: z.string() },
        execution: { taskSupport: "required" },
      },
      {
        createTask: async ({ name }, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 600_000, pollInterval: 100 });
          await store.updateTaskStatus(task.taskId, "working", `brewing ${name}`);
          brewing.set(name, task.taskId);
          return { task };
        },
        getTask: async (_args, extra) => (await store.getTask(extra.taskId)) as Task,
        getTaskResult: (_args, extra) => store.getTaskResult(extra.taskId) as never,
      },
    );
    server.registerTool(
      "echo",
      { description: "Echo the text.", inputSchema: { text: z.string() } },
      ({ text }) => ({
        content: [{ type: "text", text }],
      }),
    );
    return server.server;
  };
  const http = await serveSdkHttp(makeServer);
  return {
    url: http.url,
    tasks: async () => (await store.listTasks()).tasks,
    finish: async (name) => {
      const taskId = brewing.get(name);
      if (!taskId) throw new Error(`no brew task named ${name}`);
      await store.storeTaskResult(taskId, "completed", {
        content: [{ type: "text", text: `brewed ${name}` }],
      });
    },
    close: http.close,
    [Symbol.asyncDispose]: http.close,
  };
}
