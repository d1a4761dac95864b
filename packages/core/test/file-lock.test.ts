import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpAdapterError, withFileLock } from "../src/index.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "core-lock-"));
  file = path.join(dir, "nested", "counter.txt");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const runCounter = (rounds: number) =>
  new Promise<void>((resolve, reject) => {
    const script = fileURLToPath(new URL("./fixtures/locked-counter.mjs", import.meta.url));
    const child = spawn(process.execPath, [script, file, String(rounds)], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(stderr))));
  });

describe("withFileLock", () => {
  it("loses no increment when three processes update one file at once, and leaves no lock or temp file", async () => {
    await Promise.all([runCounter(30), runCounter(30), runCounter(30)]);
    expect(await readFile(file, "utf8")).toBe("90");
    expect(await readdir(path.dirname(file))).toEqual(["counter.txt"]);
  }, 60_000);

  it("serialises callers in one process and releases the lock when fn throws", async () => {
    const order: string[] = [];
    const slow = withFileLock(file, async () => {
      order.push("a:start");
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push("a:end");
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const fast = withFileLock(file, async () => {
      order.push("b");
    });
    await Promise.all([slow, fast]);
    expect(order).toEqual(["a:start", "a:end", "b"]);
    await expect(
      withFileLock(file, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await readdir(path.dirname(file))).toEqual([]);
  });

  it("times out with a message naming the lock file and its holder, and never runs fn unlocked", async () => {
    let ran = false;
    await withFileLock(file, async () => {
      const error = await withFileLock(
        file,
        async () => {
          ran = true;
        },
        { timeoutMs: 50 },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpAdapterError);
      expect((error as McpAdapterError).code).toBe("lock_timeout");
      expect((error as Error).message).toContain(`${file}.lock`);
      expect((error as Error).message).toContain(`process ${process.pid}`);
      // The holder's lock is still there: a timed-out waiter never removes it.
      expect(await readdir(path.dirname(file))).toEqual(["counter.txt.lock"]);
    });
    expect(ran).toBe(false);
  });

  it("keeps a long-running holder's lock fresh, so waiters do not take it over", async () => {
    const order: string[] = [];
    const slow = withFileLock(
      file,
      async () => {
        order.push("a:start");
        // Longer than staleMs: only the holder's heartbeat keeps the lock from looking abandoned.
        await new Promise((resolve) => setTimeout(resolve, 400));
        order.push("a:end");
      },
      { staleMs: 150 },
    );
    while (!order.includes("a:start")) await new Promise((resolve) => setTimeout(resolve, 5));
    await withFileLock(file, async () => order.push("b"), { staleMs: 150 });
    await slow;
    expect(order).toEqual(["a:start", "a:end", "b"]);
  });

  it("takes over a lock whose owner process is gone, without waiting for it to age", async () => {
    await withFileLock(file, async () => {}); // creates the directory
    const dead = spawn(process.execPath, ["-e", ""]);
    const pid = dead.pid;
    await new Promise((resolve) => dead.on("exit", resolve));
    await writeFile(`${file}.lock`, JSON.stringify({ pid, host: hostname(), token: "gone" }));
    expect(await withFileLock(file, async () => "ok", { timeoutMs: 2000, staleMs: 60_000 })).toBe("ok");
    expect(await readdir(path.dirname(file))).toEqual([]);
  });

  it("lets exactly one of five processes take over an abandoned lock at a time", async () => {
    await withFileLock(file, async () => {}); // creates the directory
    await writeFile(`${file}.lock`, "12345.dead");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    const go = path.join(dir, "go");
    const script = fileURLToPath(new URL("./fixtures/stale-takeover.mjs", import.meta.url));
    const runs = Array.from({ length: 5 }, () => {
      const child = spawn(process.execPath, [script, file, go, "50"], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const ready = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      const done = new Promise<void>((resolve, reject) =>
        child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}: ${stderr}`)))),
      );
      return { ready, done };
    });
    await Promise.all(runs.map((run) => run.ready));
    await writeFile(go, "");
    await Promise.all(runs.map((run) => run.done));
    const holders = (await readFile(file, "utf8")).trim().split("\n");
    expect(new Set(holders).size).toBe(5);
    expect((await readdir(path.dirname(file))).sort()).toEqual(["counter.txt"]);
  }, 60_000);

  it("takes over a lock abandoned by a crashed writer", async () => {
    await withFileLock(file, async () => {}); // creates the directory
    await writeFile(`${file}.lock`, "12345.dead");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    expect(await withFileLock(file, async () => "ok", { timeoutMs: 200 })).toBe("ok");
    expect(await readdir(path.dirname(file))).toEqual([]);
  });
});
