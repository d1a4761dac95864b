/**
 * Private directories for files the guard writes: created with `mkdtemp`
 * (a fresh, unpredictable name, mode 0700) under the system temp dir, so
 * other users can neither read the files nor plant a link in their place.
 */
import { chmod, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export async function createPrivateDir(prefix: string, root: string = tmpdir()): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(root, prefix)));
  await chmod(dir, 0o700);
  return dir;
}

/** A file name made only of safe characters, from a hint such as a tool name. */
export function safeFileStem(hint: string): string {
  const stem = hint.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "");
  return stem.slice(0, 80) || "result";
}
