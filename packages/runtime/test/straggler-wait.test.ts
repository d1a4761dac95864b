import { describe, expect, it, vi } from "vitest";
import { StragglerWait } from "../src/catalog/straggler-wait.js";

describe("StragglerWait", () => {
  it("never fires while a server is still queued, nor before any answered, nor when all answered", async () => {
    let fired = 0;
    const wait = new StragglerWait(["a", "b", "c"], () => fired++);
    wait.start("a");
    wait.start("b");
    wait.settle("a"); // c is still queued: b is not late yet
    wait.start("c");
    expect(wait.pending()).toEqual(["b", "c"]);
    wait.settle("b");
    wait.settle("c");
    expect(wait.pending()).toEqual([]);
    wait.stop();
    expect(fired).toBe(0);
  });

  it("fires once for the servers left when every server started and one answered", async () => {
    let late!: () => void;
    const fired = new Promise<void>((resolve) => {
      late = resolve;
    });
    const wait = new StragglerWait(["fast", "hung"], late);
    wait.start("fast");
    wait.start("hung");
    wait.settle("fast");
    await fired;
    expect(wait.pending()).toEqual(["hung"]);
  }, 30_000);

  it("never fires for a round without servers (a call by name waits for its server), however long the others take", () => {
    vi.useFakeTimers();
    try {
      let fired = 0;
      const wait = new StragglerWait([], () => fired++);
      for (const name of ["a", "b", "c", "d", "e"]) wait.start(name);
      wait.settle("a");
      vi.advanceTimersByTime(120_000);
      wait.settle("b");
      vi.advanceTimersByTime(120_000);
      expect(fired).toBe(0);
      expect(wait.pending()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
