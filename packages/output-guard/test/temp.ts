import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A temp dir removed with `await using`. */
export async function tempRoot(): Promise<{ path: string } & AsyncDisposable> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "output-guard-test-")));
  return { path: dir, [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }) };
}
