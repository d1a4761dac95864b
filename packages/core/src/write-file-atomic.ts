/**
 * Whole-file writes that readers and other writers never see torn: the data
 * goes to a sibling `<file>.<pid>.<random>.tmp`, is flushed to disk, and the
 * temp file is renamed over the target. Every file the adapter writes goes
 * through here. Each write also sweeps the directory's temp files that
 * writers killed mid-write left behind (`stale-temp-files.ts`).
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { sweepStaleTempFiles, tempFileName } from "./stale-temp-files.js";

export interface WriteFileAtomicOptions {
  /**
   * The file's mode. Default `0o644` (less the umask); given explicitly it is
   * applied exactly, whatever the umask, so `0o600` stays private.
   */
  mode?: number;
  /** Mode of parent directories this call creates (existing ones are left alone). Default `0o777` less the umask. */
  dirMode?: number;
}

/** Replaces `file` with `data` in one step. Throws the file system's error; the temp file never stays behind. */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: options.dirMode });
  await sweepStaleTempFiles(path.dirname(file));
  const tmp = tempFileName(file, randomBytes(6).toString("hex"));
  try {
    const handle = await open(tmp, "wx", options.mode ?? 0o644);
    try {
      await handle.writeFile(data);
      if (options.mode !== undefined) await handle.chmod(options.mode);
      // Without a flush a crash soon after the rename can leave an empty file on some file systems.
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
}
