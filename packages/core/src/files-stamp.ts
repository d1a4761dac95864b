/**
 * Which build of some code (or data) this process runs: each file's path,
 * size and modification time, so that what a build made and kept on disk
 * (a search index, a key over it) is not read back by another build — an
 * upgrade or a rebuild changes the stamp. Read from the files as they are
 * now; callers take it once per process.
 */
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The stamp of these files (`file:` URLs or paths), or `undefined` when one of them cannot be read. */
export function filesStamp(files: readonly (URL | string)[]): string | undefined {
  try {
    return files
      .map((file) => {
        const path = typeof file === "string" && !file.startsWith("file:") ? file : fileURLToPath(file);
        const stat = statSync(path);
        return `${path}\u0000${stat.size}\u0000${stat.mtimeMs}`;
      })
      .join("\n");
  } catch {
    return undefined;
  }
}
