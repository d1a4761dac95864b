import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TempDir extends AsyncDisposable {
  path: string;
  /** Path of a file or folder inside the temp dir. */
  join(...parts: string[]): string;
  remove(): Promise<void>;
}

/** A fresh private temp dir; remove it with `await using` or `remove()`. */
export async function createTempDir(prefix = "pi-mcp-adapter-test-"): Promise<TempDir> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  const remove = () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
  return {
    path: dir,
    join: (...parts) => path.join(dir, ...parts),
    remove,
    [Symbol.asyncDispose]: remove,
  };
}
