/**
 * Request timeouts that fit interactive work, against real servers:
 * progress restarts a request's timeout up to `maxTotalTimeoutMs`, and time
 * spent answering the server's own requests (a form, a sampling request, a
 * URL step held with `holdTimeouts`) never counts. The clock is a manual one
 * where a test needs time to pass (nothing waits a fixed time); the
 * slow-form cases use real time, answering only once the timeout's moment
 * has been observed to pass, so the SDKs' own timers are exercised too.
 */
import {
  browserStepTool,
  clientFeaturesServerPath,
  connectInMemory,
  createFixtureServer,
  type FixtureTool,
  gate,
  manualClock,
  type ToolCallExtra,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ClientHandlers,
  connectServer,
  type ServerConnection,
  type ServerNotification,
} from "../../src/index.js";
import { RequestDeadlines } from "../../src/requests/request-deadline.js";
import { definition, failure, text, v2ServerPath } from "../helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const sendProgress = (extra: ToolCallExtra, progress: number) =>
  extra.sendNotification({
    method: "notifications/progress",
    params: { progressToken: extra.progressToken as string, progress, message: `step ${progress}` },
  });

describe("RequestDeadlines", () => {
  it("ends a request after its idle limit, restarts that on progress, and caps the total", () => {
    const clock = manualClock();
    const deadlines = new RequestDeadlines({ now: clock.now, timers: clock.timers });
    const idle = deadlines.start({ idleMs: 500, totalMs: 10_000 });
    clock.advance(499);
    expect(idle.expired).toBeUndefined();
    idle.progress();
    clock.advance(499);
    expect(idle.expired).toBeUndefined();
    clock.advance(1);
    expect(idle.expired).toBe("idle");
    expect(idle.signal.aborted).toBe(true);

    const chatty = deadlines.start({ idleMs: 500, totalMs: 1200 });
    for (let i = 0; i < 2; i++) {
      clock.advance(400);
      chatty.progress();
    }
    expect(chatty.expired).toBeUndefined();
    clock.advance(400);
    expect(chatty.expired).toBe("total");
    expect(clock.pending).toBe(0);
  });

  it("stops every clock of the connection while paused; the idle window starts afresh on release", () => {
    const clock = manualClock();
    const deadlines = new RequestDeadlines({ now: clock.now, timers: clock.timers });
    const a = deadlines.start({ idleMs: 500, totalMs: 1000 });
    clock.advance(450);
    const releaseOuter = deadlines.pause();
    const b = deadlines.start({ idleMs: 500, totalMs: 1000 }); // started while paused: not counting yet
    const releaseInner = deadlines.pause();
    clock.advance(60_000);
    releaseOuter();
    releaseOuter(); // a second release does nothing
    clock.advance(60_000);
    expect([a.expired, b.expired, clock.pending]).toEqual([undefined, undefined, 0]);
    releaseInner();
    clock.advance(499);
    expect([a.expired, b.expired]).toEqual([undefined, undefined]);
    clock.advance(1);
    expect([a.expired, b.expired]).toEqual(["idle", "idle"]);
    // The total counts active time only: a's 450 + 500 ms.
    const c = deadlines.start({ idleMs: 500, totalMs: 600 });
    clock.advance(400);
    deadlines.pause()();
    clock.advance(199);
    expect(c.expired).toBeUndefined();
    clock.advance(1);
    expect(c.expired).toBe("total");
  });

  it("never lets the total be shorter than the idle limit", () => {
    const clock = manualClock();
    const deadline = new RequestDeadlines({ now: clock.now, timers: clock.timers }).start({
      idleMs: 900,
      totalMs: 100,
    });
    clock.advance(899);
    expect(deadline.expired).toBeUndefined();
    clock.advance(1);
    expect(deadline.expired).toBe("idle");
  });
});

describe("progress restarts the timeout, up to maxTotalTimeoutMs (in-process server, manual clock)", () => {
  /** A `work` tool that reports progress at each step the test takes, and answers when told. */
  async function progressServer(limits: { requestTimeoutMs: number; maxTotalTimeoutMs?: number }) {
    const clock = manualClock();
    let next = gate();
    const finish = gate();
    let cancelled = false;
    const work: FixtureTool = {
      name: "work",
      handler: async (_args, extra) => {
        extra.signal.addEventListener("abort", () => {
          cancelled = true;
        });
        for (let progress = 1; ; progress++) {
          const step = await Promise.race([next.opened.then(() => "step" as const), finish.opened]);
          if (step !== "step") return { content: [{ type: "text", text: `done after ${progress - 1}` }] };
          next = gate();
          await sendProgress(extra, progress);
        }
      },
    };
    const transport = await connectInMemory(createFixtureServer({ tools: [work] }));
    open = await connectServer(definition({ name: "slow", transport: "stdio", command: "x", ...limits }), {
      transport,
      now: clock.now,
      timers: clock.timers,
    });
    const seen: number[] = [];
    let heard = gate();
    const call = open.callTool(
      "work",
      {},
      {
        onProgress: (p) => {
          seen.push(p.progress);
          heard.open();
        },
      },
    );
    /** Lets `ms` of time pass, then has the server report progress and waits until the client heard it. */
    const progressAfter = async (ms: number) => {
      clock.advance(ms);
      heard = gate();
      next.open();
      await heard.opened;
    };
    return { clock, call, seen, progressAfter, finish: () => finish.open(), cancelled: () => cancelled };
  }

  it("a call reporting progress every 400 ms of a 500 ms timeout runs 2 s and succeeds", async () => {
    const server = await progressServer({ requestTimeoutMs: 500 });
    for (let i = 0; i < 5; i++) await server.progressAfter(400);
    server.clock.advance(400);
    server.finish();
    expect(text(await server.call)).toBe("done after 5");
    expect(server.seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("a server reporting progress forever ends at maxTotalTimeoutMs and is sent notifications/cancelled", async () => {
    const server = await progressServer({ requestTimeoutMs: 500, maxTotalTimeoutMs: 1200 });
    const outcome = failure(server.call);
    await server.progressAfter(400);
    await server.progressAfter(400);
    server.clock.advance(400);
    const error = await outcome;
    expect(error.code).toBe("request_timeout");
    expect(error.message).toBe(
      "slow: tools/call work timed out: it ran for its total limit of 1200 ms (maxTotalTimeoutMs), progress notwithstanding",
    );
    await expect.poll(server.cancelled).toBe(true);
  });

  it("without progress, the call ends after requestTimeoutMs", async () => {
    const server = await progressServer({ requestTimeoutMs: 500 });
    const outcome = failure(server.call);
    server.clock.advance(500);
    expect((await outcome).message).toBe(
      "slow: tools/call work timed out after 500 ms without an answer or progress",
    );
  });
});

describe("time answering the server's requests never counts (real servers, real time)", () => {
  // The call's own timeout: connecting a stdio server may take longer than this on a busy machine.
  const TIMEOUT_MS = 300;
  /** How `vi.waitUntil` looks for the moment to answer. */
  const HOLD = { timeout: 30_000, interval: 10 };
  /** Answers only once the timeout's moment has passed, measured from when the call began. */
  const slowly = (started: () => number): ClientHandlers => ({
    elicitation: async () => {
      await vi.waitUntil(() => Date.now() - started() > 2 * TIMEOUT_MS, HOLD);
      return { action: "accept", content: { name: "Ada" } };
    },
    sampling: async () => {
      await vi.waitUntil(() => Date.now() - started() > 2 * TIMEOUT_MS, HOLD);
      return { role: "assistant", content: { type: "text", text: "late but fine" }, model: "m" };
    },
    roots: async () => [{ uri: "file:///work", name: "work" }],
  });

  it.each([
    ["elicit", { action: "accept", content: { name: "Ada" } }],
    ["sample", { role: "assistant", content: { type: "text", text: "late but fine" }, model: "m" }],
  ])(
    "SDK v1 over stdio: %s answered after the request timeout, and the call succeeds",
    async (tool, answer) => {
      let started = 0;
      open = await connectServer(
        definition({
          name: "features",
          transport: "stdio",
          command: process.execPath,
          args: [clientFeaturesServerPath],
        }),
        { handlers: slowly(() => started) },
      );
      started = Date.now();
      const result = await open.callTool(tool, {}, { timeoutMs: TIMEOUT_MS });
      expect(Date.now() - started).toBeGreaterThan(2 * TIMEOUT_MS);
      expect(JSON.parse(text(result))).toEqual(answer);
    },
  );

  it("SDK v2 on 2026-07-28: an input_required round answered after the request timeout completes", async () => {
    let started = 0;
    open = await connectServer(
      definition({
        name: "modern",
        transport: "stdio",
        command: process.execPath,
        args: [v2ServerPath],
        protocol: "auto",
      }),
      { handlers: slowly(() => started), eraCache: new Map() },
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    started = Date.now();
    const result = JSON.parse(text(await open.callTool("ask", {}, { timeoutMs: TIMEOUT_MS })));
    expect(Date.now() - started).toBeGreaterThan(2 * TIMEOUT_MS);
    expect(result.name).toEqual({ action: "accept", content: { name: "Ada" } });
  });
});

describe("a URL step held with holdTimeouts, released on notifications/elicitation/complete", () => {
  it("the call waits out the browser step, then goes on under its timeout again", async () => {
    const clock = manualClock();
    const step = browserStepTool("browser", "https://example.com/x", "e1");
    const answered = gate();
    const released = gate();
    let callEnded: AbortSignal | undefined;
    const heard: ServerNotification[] = [];
    const handlers: ClientHandlers = {
      elicitationModes: ["url"],
      elicitation: async (params, context) => {
        const release = context.holdTimeouts();
        callEnded = context.callEnded;
        const id = params.mode === "url" ? params.elicitationId : undefined;
        const off = context.onNotification((n) => {
          if (n.kind !== "elicitation/complete" || n.elicitationId !== id) return;
          heard.push(n);
          off();
          release();
          released.open();
        });
        answered.open();
        return { action: "accept" };
      },
    };
    const transport = await connectInMemory(createFixtureServer({ tools: [step.tool] }));
    open = await connectServer(
      definition({ name: "web", transport: "stdio", command: "x", requestTimeoutMs: 500 }),
      { transport, handlers, now: clock.now, timers: clock.timers },
    );
    const call = open.callTool("browser", {});
    await answered.opened;
    clock.advance(60_000); // the user takes a minute in the browser: it does not count
    step.browserDone();
    await released.opened;
    expect(heard).toEqual([{ kind: "elicitation/complete", elicitationId: "e1" }]);
    clock.advance(400);
    expect(callEnded?.aborted).toBe(false);
    step.finish();
    expect(JSON.parse(text(await call))).toEqual({ action: "accept" });
    expect(callEnded?.aborted).toBe(true);
  });
});
