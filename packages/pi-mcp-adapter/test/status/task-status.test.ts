import { statusSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { describe, expect, it } from "vitest";
import { taskProgressSink } from "../../src/cli/task-progress.js";
import { taskStatusLine, taskStatusText } from "../../src/pi/status/task-status.js";

const now = 1_000_000;
const running = (message?: string, status: "working" | "input_required" = "working") =>
  statusSnapshot(
    [
      {
        name: "everything",
        state: "connected",
        toolCount: 17,
        source: "",
        tasks: [{ taskId: "t1", tool: "simulate-research-query", status, message, startedAt: now - 12_000 }],
      },
    ],
    now,
  );

describe("the task status line", () => {
  it("names the server, the tool and the server's message while a task runs, and nothing after", () => {
    expect(taskStatusText(running("Analyzing content..."))).toBe(
      "MCP task everything · simulate-research-query: Analyzing content...",
    );
    expect(taskStatusText(running("Which sense?", "input_required"))).toBe(
      "MCP task everything · simulate-research-query: input required: Which sense?",
    );
    expect(taskStatusText(running())).toBe("MCP task everything · simulate-research-query: working");
    expect(
      taskStatusText(statusSnapshot([{ name: "everything", state: "connected", source: "" }])),
    ).toBeUndefined();
    expect(taskStatusText(running("x"), { mcpFooterStatus: "off" })).toBeUndefined();
  });

  it("counts the others when several run", () => {
    const two = statusSnapshot([
      {
        name: "a",
        state: "connected",
        source: "",
        tasks: [
          { taskId: "1", tool: "one", status: "working", startedAt: now },
          { taskId: "2", tool: "two", status: "working", startedAt: now },
        ],
      },
    ]);
    expect(taskStatusText(two)).toBe("MCP task a · one: working (+1 more)");
  });

  it("sets Pi's status only when the text changes", () => {
    const set: (string | undefined)[] = [];
    const line = taskStatusLine((text) => set.push(text));
    for (const text of [undefined, "a", "a", "b", undefined, undefined]) line(text);
    expect(set).toEqual(["a", "b", undefined]);
  });
});

describe("the CLI's task progress", () => {
  it("writes one stderr line per new status or message of a task", () => {
    const lines: string[] = [];
    const sink = taskProgressSink((line) => lines.push(line));
    sink(running("Gathering sources..."));
    sink(running("Gathering sources..."));
    sink(running("Analyzing content..."));
    sink(statusSnapshot([{ name: "everything", state: "connected", source: "" }]));
    expect(lines).toEqual([
      "MCP task everything · simulate-research-query: Gathering sources...\n",
      "MCP task everything · simulate-research-query: Analyzing content...\n",
    ]);
  });
});
