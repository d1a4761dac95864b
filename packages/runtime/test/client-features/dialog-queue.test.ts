import { describe, expect, it } from "vitest";
import { createDialogQueue } from "../../src/client-features/dialog-queue.js";

describe("createDialogQueue", () => {
  it("runs one flow at a time, in arrival order, even when one fails", async () => {
    const queue = createDialogQueue();
    const events: string[] = [];
    const flow =
      (name: string, fail = false) =>
      async () => {
        events.push(`${name} start`);
        await new Promise((r) => setTimeout(r, 10));
        events.push(`${name} end`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      };
    const results = await Promise.allSettled([queue(flow("a")), queue(flow("b", true)), queue(flow("c"))]);
    expect(events).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
      "a",
      "b failed",
      "c",
    ]);
  });
});
