import { afterEach, describe, expect, it, vi } from "vitest";
import { StragglerWait } from "../../src/catalog/straggler-wait.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("StragglerWait", () => {
  it("never fires while a server is still queued, nor before any answered, nor when all answered", async () => {
    let fired = 0;
    const wait = new StragglerWait({ timed: ["a", "b", "c"] }, () => fired++);
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
    const wait = new StragglerWait({ timed: ["fast", "hung"] }, late, { minWaitMs: 50 });
    wait.start("fast");
    wait.start("hung");
    wait.settle("fast");
    await fired;
    expect(wait.pending()).toEqual(["hung"]);
  }, 30_000);

  it("never fires for a round without servers (a call by name waits for its server), however long the others take", () => {
    vi.useFakeTimers();
    let fired = 0;
    const wait = new StragglerWait({ timed: [] }, () => fired++);
    for (const name of ["a", "b", "c", "d", "e"]) wait.start(name);
    wait.settle("a");
    vi.advanceTimersByTime(120_000);
    wait.settle("b");
    vi.advanceTimersByTime(120_000);
    expect(fired).toBe(0);
    expect(wait.pending()).toEqual([]);
  });

  // Fake timers: the point is what happens long after the wait, without waiting that long.
  it("never times a needed server: a call's own server is waited for however long it takes", () => {
    vi.useFakeTimers();
    let fired = 0;
    const wait = new StragglerWait({ timed: ["everything"], needed: ["slow"] }, () => fired++, {
      minWaitMs: 5_000,
    });
    wait.start("everything");
    wait.start("slow");
    wait.settle("everything");
    vi.advanceTimersByTime(60_000);
    expect(fired).toBe(0);
    wait.settle("slow");
    expect(fired).toBe(0);
  });

  it("gives up on late timed servers only once every needed one answered", () => {
    vi.useFakeTimers();
    let fired = 0;
    const wait = new StragglerWait({ timed: ["fast", "hung"], needed: ["slow"] }, () => fired++, {
      minWaitMs: 5_000,
    });
    for (const name of ["fast", "hung", "slow"]) wait.start(name);
    wait.settle("fast");
    vi.advanceTimersByTime(60_000); // hung is late, but slow is still needed
    expect(fired).toBe(0);
    wait.settle("slow");
    expect(fired).toBe(1);
    expect(wait.pending()).toEqual(["hung"]);
  });
});
