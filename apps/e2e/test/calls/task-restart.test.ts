/**
 * An MCP task outlives the Pi process that started it, on both Pi lines: a
 * Streamable HTTP server whose task store outlives MCP sessions (test-kit's
 * durable task fixture) gets a task from a real Pi (`--mode rpc`, a session
 * on disk); that Pi is killed (SIGKILL) while the task runs; the task then
 * finishes on the server; `pi --continue` in a new process follows the task
 * again, and the model reads its result as the result of the call that
 * started it — not Pi's "No result provided" for a call left unanswered.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type ScriptStep, serveDurableTaskHttp, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

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

describe.each(piHosts())("$label", (host) => {
  it("a task started before Pi was killed reaches the model as its call's result after --continue", async () => {
    await using server = await serveDurableTaskHttp();
    await using project = await createPiProject({
      host,
      adapterConfig: { mcpServers: { remote: { url: server.url } } },
      steps: [brew("tea"), { text: "The tea is ready." }],
    });
    const sessions = project.join("sessions");
    const first = project.rpc({ sessionArgs: ["--session-dir", sessions] });
    const exited = new Promise((resolve) => first.once("exit", resolve));
    first.stdin.write(`${JSON.stringify({ id: "p1", type: "prompt", message: "Brew tea." })}\n`);
    // The task is on record in the session, and in the agent dir's journal, before Pi goes.
    const journalFile = project.join("agent", "mcp-tasks.json");
    await until(async () => {
      const text = await sessionText(sessions);
      const journal = await readFile(journalFile, "utf8").catch(() => "");
      return text.includes('"pi-mcp-adapter:task"') && journal.includes('"brew"') ? true : undefined;
    }, "the task's session entry and journal record");
    first.kill("SIGKILL");
    await exited;
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
});
