import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../src/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "core-write-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("creates missing parent directories with the mode asked for and the file with its exact mode", async () => {
    const previous = process.umask(0o000);
    try {
      const file = path.join(dir, "private", "deeper", "secret.json");
      await writeFileAtomic(file, "{}\n", { mode: 0o600, dirMode: 0o700 });
      expect(await readFile(file, "utf8")).toBe("{}\n");
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
      expect((await stat(path.join(dir, "private"))).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it("replaces a file whole, takes bytes, and leaves no temp file", async () => {
    const file = path.join(dir, "data.bin");
    await writeFileAtomic(file, "old contents that are longer");
    await writeFileAtomic(file, new Uint8Array([104, 105]));
    expect(await readFile(file, "utf8")).toBe("hi");
    expect(await readdir(dir)).toEqual(["data.bin"]);
  });

  it("keeps many concurrent writers from tearing the file", async () => {
    const file = path.join(dir, "race.json");
    const bodies = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify({ writer: i, pad: "x".repeat(10_000) }),
    );
    await Promise.all(bodies.map((body) => writeFileAtomic(file, body)));
    expect(bodies).toContain(await readFile(file, "utf8"));
    expect(await readdir(dir)).toEqual(["race.json"]);
  });

  it("throws the file system's error and cleans up its temp file when the rename fails", async () => {
    const target = path.join(dir, "is-a-dir");
    await mkdir(path.join(target, "child"), { recursive: true });
    await expect(writeFileAtomic(target, "x")).rejects.toMatchObject({
      code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST|EPERM/),
    });
    expect(await readdir(dir)).toEqual(["is-a-dir"]);
  });
});
