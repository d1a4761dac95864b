/**
 * A running call's row (progress routed by server and tool to the calls
 * that may be it, elapsed time, task status) and the prompt preview's fold.
 */
import { describe, expect, it } from "vitest";
import { PREVIEW_PART_LINES, promptPreviewText } from "../../src/pi/commands/prompt-preview.js";
import { resultRows } from "../../src/pi/render/render-results.js";
import { RunningRows, type RunningUpdate, runningText } from "../../src/pi/render/running-rows.js";

/** A call that runs until the test ends it. */
function pending() {
  let end: () => void = () => {};
  const done = new Promise<string>((resolve) => {
    end = () => resolve("result");
  });
  return { done, end };
}

describe("running rows", () => {
  it("progress reaches the rows of its server and tool (exact or prefixed names), not others", async () => {
    let now = 1_000;
    const rows = new RunningRows(() => now);
    const seen: Record<string, (string | undefined)[]> = { a: [], b: [], c: [] };
    const follow = (key: string) => (u: RunningUpdate) => seen[key]?.push(u.details.running.text);
    const a = pending();
    const b = pending();
    const c = pending();
    const runs = [
      rows.during({ tool: "docs_search" }, follow("a"), () => a.done),
      rows.during({ tool: "index", server: "docs" }, follow("b"), () => b.done),
      rows.during({ tool: "search", server: "other" }, follow("c"), () => c.done),
    ];
    now = 4_000;
    rows.progress("docs", "search", "1/3 · reading");
    rows.progress("docs", "index", "50");
    rows.progress("docs", "index", "50");
    // The end of a call's progress (undefined) leaves the row as it is until its result comes.
    rows.progress("docs", "search", undefined);
    expect(seen).toEqual({ a: [undefined, "1/3 · reading"], b: [undefined, "50"], c: [undefined] });
    a.end();
    b.end();
    c.end();
    expect(await Promise.all(runs)).toEqual(["result", "result", "result"]);
    rows.progress("docs", "search", "late");
    expect(seen.a).toHaveLength(2);
  });

  it("task status shows in the task's row; elapsed time is read when the row is drawn", async () => {
    const rows = new RunningRows(() => 0);
    let last: RunningUpdate | undefined;
    const call = pending();
    const run = rows.during(
      { tool: "research", server: "everything" },
      (u) => (last = u),
      () => call.done,
    );
    rows.tasks({
      servers: [
        {
          name: "everything",
          tasks: [
            {
              taskId: "t1",
              tool: "research",
              status: "input_required",
              message: "Which\x1b[31m one?",
              startedAt: 0,
            },
          ],
        },
      ] as never,
    });
    expect(last?.details.running.text).toBe("task input required: Which one?");
    expect(resultRows(last!, { expanded: false, isPartial: true, now: 12_500 })).toEqual([
      { text: "    … running 12s · task input required: Which one?", color: "muted" },
    ]);
    expect(runningText(undefined, 0)).toBe("running");
    call.end();
    await run;
  });

  it("a call without Pi's onUpdate or a tool name runs without a row", async () => {
    const rows = new RunningRows();
    expect(
      await rows.during(
        undefined,
        () => {},
        async () => 1,
      ),
    ).toBe(1);
    expect(await rows.during({ tool: "x" }, undefined, async () => 2)).toBe(2);
  });
});

describe("prompt preview", () => {
  it("strips control sequences, folds long parts with the count of hidden lines, names images", () => {
    const long = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const text = promptPreviewText([
      { type: "text", text: "[user]\n\x1b[2JHello \x1b]8;;http://x\x07there\x1b]8;;\x07" },
      { type: "text", text: long },
      { type: "image" },
    ]);
    const [first, second, third] = text.split("\n\n");
    expect(first).toBe("[user]\nHello there");
    const lines = second?.split("\n") ?? [];
    expect(lines).toHaveLength(PREVIEW_PART_LINES);
    expect(lines.at(-2)).toBe(`line ${PREVIEW_PART_LINES - 1}`);
    expect(lines.at(-1)).toBe(`… ${30 - PREVIEW_PART_LINES + 1} more lines`);
    expect(third).toBe("[image]");
  });
});
