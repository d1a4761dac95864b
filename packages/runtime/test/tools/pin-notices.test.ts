/**
 * Tool-pinning notices against a server whose tools differ at every listing
 * (the stdio fixture with FIXTURE_CHURN: its `churn` tool sends
 * tools/list_changed again and again, each answered by a relisting): the
 * user gets one full notice, then one line summing up the rest — not one
 * notice per listing. On a manual clock: one notice per server and
 * interval, and accepting the tools starts afresh.
 */
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { manualClock, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { PIN_NOTICE_INTERVAL_MS } from "../../src/calls/pin-notices.js";
import { AdapterRuntime, headlessHost } from "../../src/index.js";
import { connectWith } from "../definitions.js";

const open: AdapterRuntime[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.shutdown();
});

const churning: ServerDefinition = {
  name: "fixture",
  transport: "stdio",
  command: process.execPath,
  args: [stdioFixtureServerPath],
  env: { FIXTURE_CHURN: "1" },
  lifecycle: "lazy",
  protocol: "legacy",
  source: { file: "/home/u/.pi/agent/mcp-adapter.json", key: "mcpServers.fixture" },
};

function session(clock?: ReturnType<typeof manualClock>) {
  const notices: string[] = [];
  const runtime = new AdapterRuntime({
    servers: [churning],
    connect: connectWith(),
    host: headlessHost({ notify: (message) => notices.push(message) }),
    ...(clock ? { lifecycle: { now: clock.now, timers: clock.timers } } : {}),
  });
  open.push(runtime);
  return { runtime, notices };
}

const SUMMARY =
  /^MCP server fixture: tools changed (\d+) more times since \d\d:\d\d \(now 1 new, 1 changed\)\. Accept with pi-mcp-adapter trust-tools fixture\.$/;

describe("tool-pinning notices of a server whose tools change at every listing", () => {
  it("30 relistings in a row: one full notice, then one summary line when the session ends", async () => {
    const { runtime, notices } = session();
    const result = await runtime.call("fixture_churn", { times: 30 });
    expect(result.isError).toBe(false);
    // The last relisting has landed once the listing the server served last is the one known.
    await expect
      .poll(() => runtime.pins.changeOf("fixture", "listing_31")?.kind, { timeout: 20_000 })
      .toBe("new");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("MCP server fixture:\ntool echo changed: description: ");
    expect(notices[0]).toContain("new tools: listing_");
    await runtime.shutdown();
    expect(notices).toHaveLength(2);
    const [, count] = notices[1]?.match(SUMMARY) ?? [];
    // Every relisting after the first told is counted in the summary.
    expect(Number(count)).toBeGreaterThanOrEqual(20);
  });

  it("on a clock: at most one notice per interval, the summary when it ends; accepting starts afresh", async () => {
    const clock = manualClock(Date.UTC(2026, 11, 6, 10, 2));
    const { runtime, notices } = session(clock);
    await runtime.call("fixture_churn", { times: 5 });
    await expect
      .poll(() => runtime.pins.changeOf("fixture", "listing_6")?.kind, { timeout: 20_000 })
      .toBe("new");
    expect(notices).toHaveLength(1);
    clock.advance(PIN_NOTICE_INTERVAL_MS);
    expect(notices).toHaveLength(2);
    expect(notices[1]).toMatch(SUMMARY);
    expect(notices[1]).toContain("changed 4 more times");

    // Within the next interval, changes wait again; accepting drops them and the next change is told at once.
    await runtime.call("fixture_churn", { times: 1 });
    await expect
      .poll(() => runtime.pins.changeOf("fixture", "listing_7")?.kind, { timeout: 20_000 })
      .toBe("new");
    expect(notices).toHaveLength(2);
    await runtime.pins.accept("fixture");
    clock.advance(PIN_NOTICE_INTERVAL_MS);
    expect(notices).toHaveLength(2);
    await runtime.call("fixture_churn", { times: 1 });
    await expect.poll(() => notices.length, { timeout: 20_000 }).toBe(3);
    expect(notices[2]).toContain("MCP server fixture:\ntool echo changed: description: ");
  });
});
