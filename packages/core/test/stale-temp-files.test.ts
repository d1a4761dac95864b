/**
 * A writer killed mid-write (SIGKILL: no cleanup runs) leaves its temp file
 * next to the target; the next write in that directory sweeps it. A live
 * writer's temp file stays.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../src/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "core-sweep-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

const writer = fileURLToPath(new URL("./fixtures/endless-writer.mjs", import.meta.url));
const temps = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith(".tmp"));

/** Ages a file: a dead pid is only trusted once its temp file is a few seconds old (another host may share the dir). */
const age = (file: string, seconds: number) => {
  const then = new Date(Date.now() - seconds * 1000);
  return utimes(file, then, then);
};

describe("temp files of writers that died", () => {
  it("a writer killed with SIGKILL mid-write leaves a temp file; the next write sweeps it", async () => {
    const file = path.join(dir, "mcp-cache.json");
    const child = spawn(process.execPath, [writer, file], { stdio: "ignore" });
    const deadline = Date.now() + 60_000;
    while ((await temps(dir)).length === 0) {
      if (Date.now() > deadline) throw new Error("the writer never left a temp file");
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await killed(child);
    const [left] = await temps(dir);
    expect(left).toMatch(new RegExp(`^mcp-cache\\.json\\.${child.pid}\\.[0-9a-f]{12}\\.tmp$`));
    await age(path.join(dir, left as string), 10);

    await writeFileAtomic(path.join(dir, "other.json"), "{}\n");
    expect(await temps(dir)).toEqual([]);
  }, 90_000);

  it("leaves the temp file of a live writer, and sweeps any temp file older than an hour", async () => {
    const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      const busy = `mcp-cache.json.${live.pid}.0123456789ab.tmp`;
      const reused = `mcp-adapter.json.${live.pid}.ba9876543210.tmp`;
      await writeFile(path.join(dir, busy), "half written");
      await writeFile(path.join(dir, reused), "half written");
      await age(path.join(dir, busy), 10);
      await age(path.join(dir, reused), 2 * 3600);
      // Not ours: a name that only looks similar.
      await writeFile(path.join(dir, "notes.1.tmp"), "mine");

      await writeFileAtomic(path.join(dir, "approvals.json"), "{}\n");
      expect((await readdir(dir)).sort()).toEqual([busy, "approvals.json", "notes.1.tmp"].sort());
    } finally {
      await killed(live);
    }
  });
});
