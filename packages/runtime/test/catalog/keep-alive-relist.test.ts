/**
 * Keep-alive servers listed again on a schedule, against a real stdio
 * fixture server that changes its tools without sending `list_changed`
 * (FIXTURE_TOOLS_FILE is read at each listing). The schedule's timers are a
 * manual clock, so no test waits for time to pass: the keep-alive server's
 * new tool appears after one interval; a lazy server that is connected too
 * is left alone (it is listed on use, and idles out); `0` arms no timer.
 */
import { writeFile } from "node:fs/promises";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { createTempDir, manualClock, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AdapterRuntime } from "../../src/index.js";
import { connectWith } from "../definitions.js";

let temp: TempDir;
const open: AdapterRuntime[] = [];
beforeEach(async () => {
  temp = await createTempDir();
});
afterEach(async () => {
  for (const r of open.splice(0)) await r.shutdown();
  await temp.remove();
});

const server = (name: string, lifecycle: ServerDefinition["lifecycle"]): ServerDefinition => ({
  name,
  transport: "stdio",
  command: process.execPath,
  args: [stdioFixtureServerPath],
  env: { FIXTURE_TOOLS_FILE: temp.join("tools.json") },
  lifecycle,
  protocol: "legacy",
  source: { file: temp.join("mcp.json"), key: `mcpServers.${name}` },
});

function runtimeWith(intervalMs: number) {
  const clock = manualClock();
  const runtime = new AdapterRuntime({
    servers: [server("kept", "keep-alive"), server("idle", "lazy")],
    connect: connectWith(),
    catalog: { keepAliveRelist: { intervalMs, timers: clock.timers } },
  });
  open.push(runtime);
  return { runtime, clock };
}

const names = (runtime: AdapterRuntime, server: string) =>
  runtime.catalog.view().then((view) => view.tools.filter((t) => t.server === server).map((t) => t.name));

describe("keep-alive servers are listed again on a schedule", () => {
  it("a tool a keep-alive server adds silently is seen after one interval; a lazy server is left alone", async () => {
    const { runtime, clock } = runtimeWith(60_000);
    await runtime.start();
    await runtime.call("idle_echo", { text: "connect it" });
    expect(await names(runtime, "kept")).not.toContain("late_tool");
    const heard: string[] = [];
    runtime.listings.onChange((name, reason) => heard.push(`${name}:${reason}`));

    await writeFile(temp.join("tools.json"), JSON.stringify({ late_tool: { description: "Added later." } }));
    clock.advance(59_999);
    await runtime.listings.settled();
    expect(heard).toEqual([]);
    clock.advance(1);
    await runtime.listings.settled();
    expect(heard).toEqual(["kept:list_changed"]);
    expect(await names(runtime, "kept")).toContain("late_tool");
    // The lazy server is connected but not on the schedule: its old list stays until it says otherwise.
    expect(await names(runtime, "idle")).not.toContain("late_tool");
    // The schedule goes on: one timer armed for the next tick.
    expect(clock.pending).toBe(1);
  });

  it("an interval of 0 arms no timer", async () => {
    const { runtime, clock } = runtimeWith(0);
    await runtime.start();
    expect(clock.pending).toBe(0);
  });
});
