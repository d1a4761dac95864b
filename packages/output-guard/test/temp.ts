import { mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A temp dir removed with `await using`. */
export async function tempRoot(): Promise<{ path: string } & AsyncDisposable> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "output-guard-test-")));
  return { path: dir, [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }) };
}

/** Every file under `dir`, relative, depth first. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(at)).map((f) => path.join(entry.name, f)));
    else out.push(entry.name);
  }
  return out;
}
