/**
 * A 200 MB text result, guarded in a process of its own (running the built
 * package, so `npm run build` first; turbo does): the model gets 50 KiB, the
 * spill file gets all 200 MB — the only file on disk: `details` point at it
 * rather than at a second, raw-JSON copy — and memory (heap + buffers) does
 * not grow by a second copy of the text. A control run that makes one extra copy shows the
 * measurement would notice.
 */
import { execFile } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempRoot } from "./temp.js";

const script = fileURLToPath(new URL("./fixtures/huge-result.mjs", import.meta.url));
const SIZE = 200 * 1024 * 1024;

interface HugeRun {
  peakAboveBaseline: number;
  inlineBytes: number;
  notice: string;
  spill: { path: string; total: { bytes: number } };
  details: { mcpResultFile?: string; mcpResultFileFormat?: string };
}

function run(root: string, mode = ""): Promise<HugeRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--expose-gc", script, String(SIZE), root, mode],
      { maxBuffer: 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

describe("a 200 MB text result [slow]", () => {
  it("streams to the spill file without holding the text twice", { timeout: 180_000 }, async () => {
    await using root = await tempRoot();
    const guarded = await run(root.path);
    expect(guarded.inlineBytes).toBe(50 * 1024);
    expect(guarded.spill.total.bytes).toBe(SIZE);
    expect((await stat(guarded.spill.path)).size).toBe(SIZE);
    expect(guarded.notice).toContain(guarded.spill.path);
    expect(guarded.details).toMatchObject({ mcpResultFile: guarded.spill.path, mcpResultFileFormat: "text" });
    const dir = path.dirname(guarded.spill.path);
    expect(await readdir(dir)).toEqual([path.basename(guarded.spill.path)]);
    expect(guarded.peakAboveBaseline).toBeLessThan(SIZE / 4);

    await using controlRoot = await tempRoot();
    const control = await run(controlRoot.path, "copy");
    expect(control.peakAboveBaseline).toBeGreaterThan(SIZE / 2);
  });
});
