/**
 * Task status notifications on 2026-07-28: where the server offers
 * `notifications/tasks` on a `subscriptions/listen` stream, the client asks
 * for its task's and the notifications drive the task to its end — against
 * the SDK v2 fixture over Streamable HTTP, which then suggests polling only
 * once a minute and counts the `tasks/get` requests it serves. A stream the
 * server drops leaves the task followed by polling.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectServer, type TaskUpdate } from "../../src/index.js";
import { definition, startV2Http, text } from "../helpers.js";

const v2TaskServer = fileURLToPath(new URL("../fixtures/v2-task-server.mjs", import.meta.url));

async function serverWith(notify: "listen" | "drop") {
  const server = await startV2Http(false, v2TaskServer, { V2_TASK_NOTIFY: notify });
  const stats = async () =>
    (await (await fetch(new URL("/stats", server.url))).json()) as { tasksGet: number; listens: number };
  return { ...server, stats };
}

describe("task status notifications through subscriptions/listen (2026-07-28)", () => {
  it("the notifications bring the task's statuses and its result, without polling", async () => {
    await using server = await serverWith("listen");
    await using connection = Object.assign(
      await connectServer(
        definition({ name: "remote", transport: "http", url: server.url, protocol: "2026-07-28" }),
      ),
      { [Symbol.asyncDispose]: () => connection.close() },
    );
    const updates: TaskUpdate[] = [];
    const result = await connection.callTool(
      "research",
      { topic: "otters", stepMs: 300 },
      { onTask: (update) => updates.push(update) },
    );
    expect(text(result)).toBe("Report on otters");
    // The server suggested a poll a minute: the later stages and the end came as notifications.
    expect(updates.map((u) => u.message)).toContain("Writing report...");
    expect(updates.at(-1)?.status).toBe("completed");
    const { tasksGet, listens } = await server.stats();
    expect(listens).toBe(1);
    expect(tasksGet).toBeLessThanOrEqual(1);
  }, 30_000);

  it("a listen stream the server drops: polling carries the task to its end", async () => {
    await using server = await serverWith("drop");
    const connection = await connectServer(
      definition({ name: "remote", transport: "http", url: server.url, protocol: "2026-07-28" }),
    );
    try {
      const result = await connection.callTool("research", { topic: "lynx", stepMs: 50 });
      expect(text(result)).toBe("Report on lynx");
      const { tasksGet, listens } = await server.stats();
      expect(listens).toBe(1);
      expect(tasksGet).toBeGreaterThan(1);
    } finally {
      await connection.close();
    }
  }, 30_000);
});
