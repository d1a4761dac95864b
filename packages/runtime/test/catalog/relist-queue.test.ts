import { gate } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { RelistQueue } from "../../src/catalog/relist-queue.js";

describe("RelistQueue", () => {
  it("turns a burst during a listing into one more listing, and a later request into another", async () => {
    const runs: string[] = [];
    let hold = gate();
    const queue = new RelistQueue(async (server) => {
      runs.push(server);
      await hold.opened;
    });
    const first = queue.request("a");
    for (let i = 0; i < 50; i++) void queue.request("a"); // arrive while the first listing runs
    void queue.request("b");
    expect(runs).toEqual(["a", "b"]);
    hold.open();
    await first;
    await queue.settled();
    expect(runs).toEqual(["a", "b", "a"]); // the burst cost one listing, after the one running
    hold = gate();
    hold.open();
    await queue.request("a");
    expect(runs).toEqual(["a", "b", "a", "a"]);
  });

  it("keeps going after a listing fails", async () => {
    let calls = 0;
    const queue = new RelistQueue(async () => {
      calls++;
      throw new Error("listing failed");
    });
    await queue.request("a");
    await queue.request("a");
    expect(calls).toBe(2);
  });
});
