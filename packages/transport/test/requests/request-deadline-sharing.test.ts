/**
 * What a request's deadline costs per call: a connection's deadlines share
 * one timer (set for the earliest), and many requests following the same
 * caller signal add one `abort` listener to it between them — while every
 * limit and every abort still reaches the request it belongs to.
 */
import { getEventListeners } from "node:events";
import { manualClock } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { RequestDeadlines } from "../../src/requests/request-deadline.js";

describe("one timer per connection", () => {
  it("starts no timer for requests due after the one already set, and still ends each at its own limit", () => {
    const clock = manualClock();
    let started = 0;
    const timers = {
      setTimeout: (fn: () => void, ms: number) => {
        started++;
        return clock.timers.setTimeout(fn, ms);
      },
      clearTimeout: clock.timers.clearTimeout,
    };
    const deadlines = new RequestDeadlines({ now: clock.now, timers });
    // Requests one after another, as a session makes them: one timer between them.
    for (let i = 0; i < 50; i++) {
      clock.advance(10);
      deadlines.start({ idleMs: 1000, totalMs: 5000 }).end();
    }
    expect(started).toBe(1);
    const slow = deadlines.start({ idleMs: 1000, totalMs: 5000 });
    const quick = deadlines.start({ idleMs: 100, totalMs: 5000 }); // due earlier: the timer moves up
    clock.advance(99);
    expect([slow.expired, quick.expired]).toEqual([undefined, undefined]);
    clock.advance(1);
    expect([slow.expired, quick.expired]).toEqual([undefined, "idle"]);
    expect(quick.signal.aborted).toBe(true);
    clock.advance(899);
    expect(slow.expired).toBeUndefined();
    clock.advance(1);
    expect(slow.expired).toBe("idle");
    expect(slow.signal.reason).toBeInstanceOf(Error);
    expect(clock.pending).toBe(0);
  });

  it("a request that ended is never aborted by the timer set for it", () => {
    const clock = manualClock();
    const deadlines = new RequestDeadlines({ now: clock.now, timers: clock.timers });
    const done = deadlines.start({ idleMs: 100, totalMs: 100 });
    done.end();
    clock.advance(10_000);
    expect([done.expired, done.signal.aborted, clock.pending]).toEqual([undefined, false, 0]);
  });
});

describe("following the caller's signal", () => {
  it("many requests add one listener to it; its abort reaches the requests in flight with its reason", () => {
    const clock = manualClock();
    const deadlines = new RequestDeadlines({ now: clock.now, timers: clock.timers });
    const caller = new AbortController();
    const ended = deadlines.start({ idleMs: 1000, totalMs: 1000 }, caller.signal);
    ended.end();
    const a = deadlines.start({ idleMs: 1000, totalMs: 1000 }, caller.signal);
    const b = deadlines.start({ idleMs: 1000, totalMs: 1000 }, caller.signal);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    const reason = new Error("user pressed escape");
    caller.abort(reason);
    expect([a.signal.reason, b.signal.reason]).toEqual([reason, reason]);
    expect([a.expired, b.expired]).toEqual([undefined, undefined]); // cancelled, not timed out
    expect(ended.signal.aborted).toBe(false);
  });

  it("a signal aborted before the request starts aborts it at once", () => {
    const deadlines = new RequestDeadlines();
    const caller = new AbortController();
    caller.abort("gone");
    const deadline = deadlines.start({ idleMs: 1000, totalMs: 1000 }, caller.signal);
    expect(deadline.signal.reason).toBe("gone");
    deadline.end();
  });

  it("our own request path hears a deadline's abort without a signal, read later it is aborted too", () => {
    const clock = manualClock();
    const deadlines = new RequestDeadlines({ now: clock.now, timers: clock.timers });
    const caller = new AbortController();
    const heard: unknown[] = [];
    const timed = deadlines.start({ idleMs: 100, totalMs: 100 });
    const followed = deadlines.start({ idleMs: 1000, totalMs: 1000 }, caller.signal);
    timed.onAbort((reason) => heard.push(reason));
    const stop = followed.onAbort((reason) => heard.push(reason));
    clock.advance(100);
    expect(heard).toHaveLength(1);
    expect([timed.aborted, timed.signal.aborted, timed.signal.reason]).toEqual([true, true, heard[0]]);
    stop();
    caller.abort("gone");
    expect(heard).toHaveLength(1); // stopped listening before the caller aborted
    expect([followed.aborted, followed.reason, followed.signal.reason]).toEqual([true, "gone", "gone"]);
  });
});
