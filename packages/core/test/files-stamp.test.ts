import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { filesStamp } from "../src/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "files-stamp-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("filesStamp", () => {
  it("is the same for the same files however named, and changes with a file's size or time", async () => {
    const a = path.join(dir, "a.js");
    const b = path.join(dir, "b.bin");
    await writeFile(a, "code");
    await writeFile(b, "data");
    const stamp = filesStamp([a, pathToFileURL(b)]);
    expect(stamp).toContain(a);
    expect(filesStamp([pathToFileURL(a).href, b])).toBe(stamp);
    await writeFile(b, "more data");
    const grown = filesStamp([a, b]);
    expect(grown).not.toBe(stamp);
    await utimes(a, new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(filesStamp([a, b])).not.toBe(grown);
  });

  it("is undefined when a file cannot be read", () => {
    expect(filesStamp([path.join(dir, "missing.js")])).toBeUndefined();
  });
});
