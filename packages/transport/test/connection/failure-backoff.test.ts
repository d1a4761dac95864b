/**
 * Failure backoff through real stdio processes: a server that failed to
 * start is not started again by use until its window ends (30 s, then 60 s);
 * an explicit reconnect tries at once. A server killed with SIGKILL in the
 * middle of a call is started again by the next use. The clock is a variable
 * so the windows pass without waiting.
 */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { createTempDir, faultServerPath, recordedPids } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionManager } from "../../src/index.js";
import { connectWith, definition, failure, faultStdio, fixtureStdio } from "../helpers.js";

let manager: ConnectionManager | undefined;
afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
});

describe("failure backoff", () => {
  it("does not respawn a server that failed to start until its window ends, and says so", async () => {
    await using dir = await createTempDir();
    let now = 1_000_000;
    const clock = () => now;
    manager = new ConnectionManager([faultStdio("db", "exit-on-initialize", { FIXTURE_PID_DIR: dir.path })], {
      connect: connectWith({ killGraceMs: 300, now: clock }),
      now: clock,
    });
    expect((await failure(manager.get("db"))).message).toContain("fatal: cannot open database");
    expect(await recordedPids(dir.path)).toHaveLength(1);

    now += 12_000;
    const refused = await failure(manager.get("db"));
    expect(refused.code).toBe("unavailable");
    expect(refused.message).toMatch(
      /^server "db" is unavailable \(last failed 12 s ago: .*fatal: cannot open database.*\); next try in 18 s, or reconnect "db" to try now$/,
    );
    expect(await recordedPids(dir.path)).toHaveLength(1); // nothing was spawned
    expect(manager.status()[0]).toMatchObject({ state: "failed", retryAt: 1_030_000 });

    // The window is over: the next use tries again; a second failure in a row waits 60 s.
    now = 1_030_000;
    await failure(manager.get("db"));
    expect(await recordedPids(dir.path)).toHaveLength(2);
    expect(manager.status()[0]!.retryAt).toBe(1_090_000);
    now += 45_000;
    expect((await failure(manager.get("db"))).code).toBe("unavailable");
    expect(await recordedPids(dir.path)).toHaveLength(2);

    // An explicit reconnect is the user's word: it tries at once.
    await failure(manager.reconnect("db"));
    expect(await recordedPids(dir.path)).toHaveLength(3);
  });

  it("starts a server killed mid-call again on the next use; only a failed restart is held back", async () => {
    await using dir = await createTempDir();
    let now = 5_000_000;
    const clock = () => now;
    const broken = path.join(dir.path, "broken");
    manager = new ConnectionManager([crashableStdio("calc", broken, dir.path)], {
      connect: connectWith({ killGraceMs: 300, now: clock }),
      now: clock,
      failureBackoff: { initialMs: 10_000, maxMs: 20_000 },
    });
    const first = await manager.get("calc");
    const call = failure(first.callTool("sleep", { ms: 60_000 }));
    await expect.poll(() => first.stderrTail(1).join(""), { timeout: 30_000 }).toContain("sleeping");
    process.kill(first.pid!, "SIGKILL");
    expect((await call).message).toContain("may or may not have run on the server");
    await expect.poll(() => manager!.status()[0]!.state).toBe("failed");
    expect(manager.status()[0]!.retryAt).toBeUndefined();

    // The very next use starts it again: no window after a crash.
    now += 1_000;
    const second = await manager.get("calc");
    expect(second.pid).not.toBe(first.pid);
    expect(manager.status()[0]).toEqual({ name: "calc", state: "connected", connectMs: expect.any(Number) });

    // It crashes again and now cannot start: that failed start opens the window, and the refusal says
    // when it is tried next and how to try now.
    await writeFile(broken, "");
    process.kill(second.pid!, "SIGKILL");
    await expect.poll(() => manager!.status()[0]!.state).toBe("failed");
    expect((await failure(manager.get("calc"))).message).toContain("fatal: cannot open database");
    now += 3_000;
    const refused = await failure(manager.get("calc"));
    expect(refused.code).toBe("unavailable");
    expect(refused.message).toMatch(
      /^server "calc" is unavailable \(last failed 3 s ago: .*fatal: cannot open database.*\); next try in 7 s, or reconnect "calc" to try now$/,
    );
    expect(await recordedPids(dir.path)).toHaveLength(3); // the refused use started nothing

    await rm(broken);
    now += 7_000; // the 10 s window is over
    expect((await manager.get("calc")).pid).toBeGreaterThan(0);
    expect(manager.status()[0]).toEqual({ name: "calc", state: "connected", connectMs: expect.any(Number) });
  });

  it("lets a call bring back a keep-alive server that lost its connection, without waiting for its timer", async () => {
    manager = new ConnectionManager<ServerDefinition>(
      [{ ...fixtureStdio("resident"), lifecycle: "keep-alive" }],
      {
        connect: connectWith({ killGraceMs: 300 }),
        backoff: { initialMs: 600_000 }, // the timer would not fire during the test
      },
    );
    await manager.start();
    const first = await manager.get("resident");
    process.kill(first.pid!, "SIGKILL");
    await expect.poll(() => manager!.status()[0]!.state).toBe("failed");
    expect(manager.status()[0]!.retryAt).toBeUndefined();
    expect((await manager.get("resident")).pid).not.toBe(first.pid);
  });
});

/**
 * The fault server behind a shell that records each start in `pidDir` and fails it (a stderr line,
 * exit 3) while `broken` exists.
 */
function crashableStdio(name: string, broken: string, pidDir: string) {
  const script =
    ': > "$FIXTURE_PID_DIR/$$"; if [ -e "$BROKEN" ]; then echo "fatal: cannot open database" >&2; exit 3; fi; exec "$0" "$1"';
  return definition({
    name,
    transport: "stdio",
    command: "sh",
    args: ["-c", script, process.execPath, faultServerPath],
    env: { BROKEN: broken, FIXTURE_PID_DIR: pidDir },
  });
}
