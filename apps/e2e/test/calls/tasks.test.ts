/**
 * MCP tasks in real Pi, on both Pi lines, against the published
 * server-everything over stdio: its `simulate-research-query` requires a task
 * (a plain call fails with -32601 "requires task augmentation"). A wire-log
 * proxy in front of the server records what it saw and answered.
 * 1. `--mode json`: the research report reaches the model through the proxy tool.
 * 2. `--mode rpc`: with `ambiguous: true` the task asks for a clarification;
 *    it is the usual form dialog, and the answer shapes the report. While the
 *    task runs, Pi's status line and the call's row show its status messages.
 * 3. `--mode rpc`: aborting the run mid-task sends `tasks/cancel`, and the
 *    server answers that the task is cancelled.
 */
import { readFileSync } from "node:fs";
import {
  answerTo,
  readWireLog,
  type ScriptStep,
  serverEverythingPath,
  toolResultTexts,
  wireLogProxyPath,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { type PiHost, piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { type RpcMessage, runRpcPrompt } from "../../src/rpc-messages.js";

const research = (args: Record<string, unknown>): ScriptStep => ({
  toolCall: { name: "mcp", arguments: { tool: "everything_simulate-research-query", args } },
});

/** The key of the adapter's task line in Pi's status line (pi/task-status.ts). */
const TASK_STATUS_KEY = "pi-mcp-adapter-tasks";

/** A project whose user-level config runs server-everything behind the wire-log proxy (`<root>/wire.jsonl`). */
function everythingProject(host: PiHost, steps: ScriptStep[]) {
  return createPiProject({
    host,
    adapterConfig: (paths) => ({
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [wireLogProxyPath, paths.join("wire.jsonl"), process.execPath, serverEverythingPath],
        },
      },
    }),
    steps,
  });
}

/** The texts of the task line Pi was told to show, in order (undefined: cleared). */
function taskLines(messages: RpcMessage[]): (string | undefined)[] {
  return messages
    .filter((m) => m.method === "setStatus" && m.statusKey === TASK_STATUS_KEY)
    .map((m) => m.statusText as string | undefined);
}

describe.each(piHosts())("$label", (host) => {
  it("--mode json: a tool that requires a task runs as one, and its report reaches the model", async () => {
    await using project = await everythingProject(host, [research({ topic: "tides" }), { text: "Done." }]);
    const run = await project.run("Research tides.");
    expect(run.code, run.stderr).toBe(0);
    const [result] = toolResultTexts(project.model.requests[1]!);
    expect(result).toContain("# Research Report: tides");
    expect(result).not.toContain("requires task augmentation");
    const wire = await readWireLog(project.join("wire.jsonl"));
    const call = wire.find((e) => e.from === "client" && e.message.method === "tools/call");
    expect(call?.message.params?.task).toEqual({});
  });

  it("--mode rpc: the task's clarification is a form dialog whose answer shapes the report; the status line follows it", async () => {
    await using project = await everythingProject(host, [
      research({ topic: "tides", ambiguous: true }),
      { text: "Done." },
    ]);
    const messages: RpcMessage[] = [];
    const shown = await runRpcPrompt(
      project.rpc(),
      "Research tides.",
      (request) => {
        if (request.title.startsWith('MCP server "everything" asks for input:')) return "Fill in the form";
        if (request.title.startsWith("Send these answers")) return "Send";
        return request.options?.find((o) => o.startsWith("Historical perspective"));
      },
      { onMessage: (message) => messages.push(message) },
    );
    expect(shown[0]!.title).toContain('The research query "tides" could have multiple interpretations');
    expect(shown.some((r) => r.options?.some((o) => o.startsWith("Historical perspective")))).toBe(true);
    const [result] = toolResultTexts(project.model.requests[1]!);
    expect(result).toContain("# Research Report: tides (historical)");
    const lines = taskLines(messages);
    expect(lines).toContain("MCP task everything · simulate-research-query: Analyzing content...");
    expect(lines.some((l) => l?.includes("input required: Found multiple interpretations"))).toBe(true);
    // Cleared once the task ended.
    expect(lines.at(-1)).toBeUndefined();
    // The call's own row (a partial result of the proxy call) shows the task's status too.
    const rows = messages
      .filter((m) => m.type === "tool_execution_update")
      .map((m) => (m.partialResult as { details?: { running?: { text?: string } } }).details?.running?.text);
    expect(rows).toContain("task: Analyzing content...");
    expect(rows.some((r) => r?.startsWith("task input required: Found multiple interpretations"))).toBe(true);
  });

  it("--mode rpc: aborting the run mid-task cancels the task on the server", async () => {
    await using project = await everythingProject(host, [research({ topic: "tides" }), { text: "Done." }]);
    let aborted = false;
    let logAtEnd = "";
    await runRpcPrompt(project.rpc(), "Research tides.", () => undefined, {
      onMessage: (message, send) => {
        // What the server had seen when the run ended (before Pi is stopped and shuts its servers down).
        if (message.type === "agent_end") logAtEnd = readFileSync(project.join("wire.jsonl"), "utf8");
        const line = taskLines([message])[0];
        if (!aborted && line?.endsWith("Analyzing content...")) {
          aborted = true;
          send({ id: "a1", type: "abort" });
        }
      },
    });
    expect(aborted).toBe(true);
    // Pi waits for the tool to settle before the run ends, and the tool settles once the cancel is answered.
    expect(logAtEnd).toContain('"method":"tasks/cancel"');
    const wire = await readWireLog(project.join("wire.jsonl"));
    const created = answerTo(wire, "tools/call")?.result as { task: { taskId: string } };
    const taskId = created.task.taskId;
    expect(answerTo(wire, "tasks/cancel", { taskId })).toMatchObject({
      result: { taskId, status: "cancelled" },
    });
    // The model was not asked again: the run ended with the abort.
    expect(project.model.requests).toHaveLength(1);
  });
});
