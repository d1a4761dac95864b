/**
 * An MCP task outlives the Pi process that started it, on both Pi lines: a
 * Streamable HTTP server whose task store outlives MCP sessions (test-kit's
 * durable task fixture) gets a task from a real Pi (`--mode rpc`, a session
 * on disk); that Pi is killed (SIGKILL) while the task runs; the task then
 * finishes on the server; `pi --continue` in a new process follows the task
 * again, and the model reads its result as the result of the call that
 * started it — not Pi's "No result provided" for a call left unanswered.
 * A task followed again can be cancelled with `/mcp-adapter cancel-task`.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import {
  type DurableTaskFixture,
  type ScriptStep,
  serveDurableTaskHttp,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { type PiHost, piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const brew = (name: string): ScriptStep => ({
  toolCall: { name: "mcp", arguments: { tool: "remote_brew", args: { name } } },
});

/** Polls `read` until it gives a value (a generous deadline: the machine is shared). */
async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text of every session file in `dir`. */
async function sessionText(dir: string): Promise<string> {
  const files = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const texts = await Promise.all(
    files.filter((f) => f.endsWith(".jsonl")).map((f) => readFile(path.join(dir, f), "utf8")),
  );
  return texts.join("\n");
}

/** The key of the adapter's task line in Pi's status line (pi/status/task-status.ts). */
const TASK_STATUS_KEY = "pi-mcp-adapter-tasks";

/** A project whose user-level config has the durable task server as `remote`, and its session dir. */
async function taskProject(host: PiHost, server: DurableTaskFixture, steps: ScriptStep[]) {
  const project = await createPiProject({
    host,
    adapterConfig: { mcpServers: { remote: { url: server.url } } },
    steps,
  });
  return {
    project,
    sessions: project.join("sessions"),
    journalFile: project.join("agent", "mcp-tasks.json"),
  };
}

/** A Pi process asked to brew: killed (SIGKILL) once its task is on record in the session and the journal. */
async function startAndKill(project: PiProject, sessions: string, journalFile: string): Promise<void> {
  const first = project.rpc({ sessionArgs: ["--session-dir", sessions] });
  const exited = new Promise((resolve) => first.once("exit", resolve));
  first.stdin.write(`${JSON.stringify({ id: "p1", type: "prompt", message: "Brew." })}\n`);
  await until(async () => {
    const text = await sessionText(sessions);
    const journal = await readFile(journalFile, "utf8").catch(() => "");
    return text.includes('"pi-mcp-adapter:task"') && journal.includes('"brew"') ? true : undefined;
  }, "the task's session entry and journal record");
  first.kill("SIGKILL");
  await exited;
}

describe.each(piHosts())("$label", (host) => {
  it("a task started before Pi was killed reaches the model as its call's result after --continue", async () => {
    await using server = await serveDurableTaskHttp();
    const { project, sessions, journalFile } = await taskProject(host, server, [
      brew("tea"),
      { text: "The tea is ready." },
    ]);
    await using _project = project;
    await startAndKill(project, sessions, journalFile);
    const [task] = await server.tasks();
    expect(task?.status).toBe("working");
    const journal = JSON.parse(await readFile(journalFile, "utf8"));
    expect(journal.tasks).toMatchObject([{ taskId: task!.taskId, server: "remote", tool: "brew" }]);

    await server.finish("tea");
    const run = await project.run("Is the tea ready?", {
      sessionArgs: ["--session-dir", sessions, "--continue"],
    });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResultTexts(run.requests[0]!);
    expect(results).toHaveLength(1);
    expect(results[0]).toContain("brewed tea");
    expect(results[0]).not.toContain("No result provided");
    // Done: the journal no longer holds the task.
    const after = JSON.parse(await readFile(journalFile, "utf8"));
    expect(after.tasks).toEqual([]);
  });

  it("--mode rpc: after --continue the task line shows the task again, and cancel-task cancels it on the server", async () => {
    await using server = await serveDurableTaskHttp();
    const { project, sessions, journalFile } = await taskProject(host, server, [brew("coffee")]);
    await using _project = project;
    await startAndKill(project, sessions, journalFile);
    const [task] = await server.tasks();
    const second = project.rpc({ sessionArgs: ["--session-dir", sessions, "--continue"] });
    try {
      const send = (command: unknown) => second.stdin.write(`${JSON.stringify(command)}\n`);
      // Read every message (ending the read would close Pi's stdout); the task line once it names the task.
      let line: string | undefined;
      const notices: string[] = [];
      void (async () => {
        for await (const message of rpcMessages(second.stdout)) {
          if (message.method === "notify") notices.push(String(message.message));
          if (message.method === "setStatus" && message.statusKey === TASK_STATUS_KEY)
            line = message.statusText as string | undefined;
        }
      })();
      await until(async () => (line?.includes("remote · brew") ? true : undefined), "the task line");
      expect(line).toContain("MCP task remote · brew: brewing coffee");
      send({ id: "c1", type: "prompt", message: `/mcp-adapter cancel-task ${task!.taskId}` });
      const cancelled = await until(async () => {
        const found = (await server.tasks()).find((t) => t.taskId === task!.taskId);
        return found?.status === "cancelled" ? found : undefined;
      }, "the server to cancel the task");
      expect(cancelled.status).toBe("cancelled");
      await until(async () => (line === undefined ? true : undefined), "the task line to clear");
      expect(notices).toContain(`Cancelling MCP task ${task!.taskId} (remote · brew).`);
    } finally {
      second.kill();
    }
  });
});
