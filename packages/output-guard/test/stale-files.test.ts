/**
 * The sweep of old guard files, on real files whose ages are set with
 * `utimes`: what goes (spill files past `spillMaxAgeDays`, binary files a
 * crashed session left a day ago, partial files whose writer died), and what
 * must stay (fresh files, files that are not ours, a write in progress).
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SpillMaxAgeDaysSchema } from "@pi-mcp-adapter/core/schemas";
import { describe, expect, it } from "vitest";
import {
  createFileSpillWriter,
  createOutputGuard,
  removeStaleGuardFiles,
  spillMaxAgeMs,
} from "../src/index.js";
import { PARTIAL_FILE_GRACE_MS } from "../src/stale-files.js";
import { filesUnder, tempRoot } from "./temp.js";

const DAY = 24 * 60 * 60 * 1000;
const crashScript = fileURLToPath(new URL("./fixtures/crash-mid-write.mjs", import.meta.url));

/** Writes `file` under `root`, its mtime (and its directory's) `daysOld` days back. */
async function plant(root: string, file: string, daysOld = 0): Promise<void> {
  const at = path.join(root, file);
  await mkdir(path.dirname(at), { recursive: true });
  await writeFile(at, "left over");
  if (daysOld === 0) return;
  const when = new Date(Date.now() - daysOld * DAY);
  await utimes(at, when, when);
  await utimes(path.dirname(at), when, when);
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

describe("old spill files", () => {
  it("a new guard removes spill files older than 7 days, and keeps younger ones and files not ours", async () => {
    await using root = await tempRoot();
    await plant(root.path, "pi-mcp-adapter-spill-OLD123/github-search-0123abcd.txt", 8);
    await plant(root.path, "pi-mcp-adapter-spill-OLD123/github-search-4567cdef.json", 8);
    await plant(root.path, "pi-mcp-adapter-spill-MID456/files-read-89abcdef.txt", 6);
    await plant(root.path, "pi-mcp-adapter-spill-MIX789/files-read-00000000.txt", 9);
    await plant(root.path, "pi-mcp-adapter-spill-MIX789/notes.txt", 9);
    await plant(root.path, "pi-mcp-adapter-spill-MIX789/kept/files-read-11111111.txt", 9);
    await plant(root.path, "someone-elses-dir/files-read-22222222.txt", 30);

    const guard = createOutputGuard({ root: root.path });
    await guard.staleSweep;
    expect((await filesUnder(root.path)).sort()).toEqual([
      "pi-mcp-adapter-spill-MID456/files-read-89abcdef.txt",
      "pi-mcp-adapter-spill-MIX789/kept/files-read-11111111.txt",
      "pi-mcp-adapter-spill-MIX789/notes.txt",
      "someone-elses-dir/files-read-22222222.txt",
    ]);
    expect(await removeStaleGuardFiles({ root: root.path })).toEqual([]);
  });

  it("spillMaxAgeDays sets the age; binary files a crashed session left go after a day", async () => {
    await using root = await tempRoot();
    await plant(root.path, "pi-mcp-adapter-spill-AAA111/docs-fetch-0123abcd.txt", 2);
    await plant(root.path, "pi-mcp-adapter-spill-BBB222/docs-fetch-4567cdef.txt", 0.5);
    await plant(root.path, "pi-mcp-adapter-blobs-CCC333/files-read-89abcdef.png", 2);
    const guard = createOutputGuard({ root: root.path, spillMaxAgeDays: 1 });
    await guard.staleSweep;
    expect(await filesUnder(root.path)).toEqual(["pi-mcp-adapter-spill-BBB222/docs-fetch-4567cdef.txt"]);
  });

  it("a spillMaxAgeDays that is not a number of days above 0 is refused with a message naming it", () => {
    expect(() => createOutputGuard({ spillMaxAgeDays: 0, staleFiles: false })).toThrow(
      "spillMaxAgeDays: expected a number of days greater than 0 (got 0)",
    );
  });

  it("spillMaxAgeDays is checked without zod, accepting and refusing what core's schema does, in its words", () => {
    for (const days of [7, 0.5, 1e-9, 0, -1, "7", Number.NaN, Number.POSITIVE_INFINITY, null, true, []]) {
      const parsed = SpillMaxAgeDaysSchema.safeParse(days);
      const got = JSON.stringify(days)?.slice(0, 80);
      if (parsed.success) expect(spillMaxAgeMs(days)).toBe(parsed.data * 24 * 60 * 60 * 1000);
      else
        expect(() => spillMaxAgeMs(days)).toThrow(
          `spillMaxAgeDays: ${parsed.error.issues[0]?.message} (got ${got})`,
        );
    }
  });

  it("a session whose directory was swept after a quiet week makes a new one", async () => {
    await using root = await tempRoot();
    const writer = createFileSpillWriter({ root: root.path });
    const first = await writer.create("a", "txt");
    await first.write("one");
    await first.close();
    const later = Date.now() + 8 * DAY;
    expect(await removeStaleGuardFiles({ root: root.path, now: () => later })).toHaveLength(2);
    const second = await writer.create("b", "txt");
    await second.write("two");
    await second.close();
    expect(await readFile(second.path, "utf8")).toBe("two");
  });
});

describe("partial spill files", () => {
  it("a write in progress in a running session is never swept, however late the sweep", async () => {
    await using root = await tempRoot();
    const writer = createFileSpillWriter({ root: root.path });
    const file = await writer.create("slow", "txt");
    await file.write("first half");
    const [partial] = await filesUnder(root.path);
    expect(partial).toMatch(new RegExp(`/slow-[0-9a-f]{8}\\.txt\\.${process.pid}\\.partial$`));
    // An hour later (the writer, this process, still runs) and six days later.
    for (const ahead of [60 * 60 * 1000, 6 * DAY]) {
      expect(await removeStaleGuardFiles({ root: root.path, now: () => Date.now() + ahead })).toEqual([]);
    }
    await file.write(" second half");
    await file.close();
    expect(await readFile(file.path, "utf8")).toBe("first half second half");
  });

  it("a partial file whose writer is gone is swept once it has been quiet a minute", async () => {
    await using root = await tempRoot();
    const dead = await deadPid();
    await plant(root.path, `pi-mcp-adapter-spill-DDD444/x-0123abcd.txt.${dead}.partial`);
    await plant(root.path, `pi-mcp-adapter-spill-DDD444/y-4567cdef.txt.${process.pid}.partial`);
    expect(await removeStaleGuardFiles({ root: root.path })).toEqual([]);
    const later = Date.now() + PARTIAL_FILE_GRACE_MS + 1000;
    expect(await removeStaleGuardFiles({ root: root.path, now: () => later })).toEqual([
      path.join(root.path, `pi-mcp-adapter-spill-DDD444/x-0123abcd.txt.${dead}.partial`),
    ]);
  });

  it("a session killed mid-write leaves no file under the final name, and its partial file is swept", async () => {
    await using root = await tempRoot();
    const { stdout } = await new Promise<{ stdout: string }>((resolve) => {
      execFile(process.execPath, [crashScript, root.path], (_error, out) => resolve({ stdout: out }));
    });
    const told = JSON.parse(stdout) as { path: string; pid: number };
    await expect(stat(told.path)).rejects.toMatchObject({ code: "ENOENT" });
    const left = await filesUnder(root.path);
    expect(left).toEqual([`${path.relative(root.path, told.path)}.${told.pid}.partial`]);
    expect((await stat(path.join(root.path, left[0] as string))).size).toBeGreaterThan(0);
    const later = Date.now() + PARTIAL_FILE_GRACE_MS + 1000;
    expect(await removeStaleGuardFiles({ root: root.path, now: () => later })).toEqual([
      path.join(root.path, left[0] as string),
    ]);
  });
});
