/**
 * Spill files: the full text (or raw JSON) of a result too large to show
 * inline, written piece by piece to a file of mode 0600 in a private
 * directory of this session. A file is written under a partial name that
 * names the writing process (`guard-file-names.ts`) and renamed when
 * complete, so a result never names a cut file, and a write that fails
 * (disk full) removes what it wrote. Spill files outlive the session: a
 * resumed session still points at them, and the user may open them after
 * the process ended. They are removed by age, by a later session
 * (`stale-files.ts`, the `spillMaxAgeDays` setting).
 */
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { guardFileName, partialFileName } from "./guard-file-names.js";
import { createPrivateDir } from "./private-dir.js";

/** Spill directories are made under the temp dir with this prefix (`mkdtemp` adds the rest). */
export const SPILL_DIR_PREFIX = "pi-mcp-adapter-spill-";

/**
 * An open spill file. `write` appends; then exactly one of `close` (keep it
 * under `path`) or `discard` (remove it: the write failed part way) is called.
 */
export interface SpillFile {
  readonly path: string;
  write(chunk: string): Promise<void>;
  close(): Promise<void>;
  /** Removes what was written; never throws. Writers without it leave a failed file to `close`. */
  discard?(): Promise<void>;
}

/**
 * Creates spill files. The default writes to the disk; tests or other hosts
 * may pass their own. `create` may throw; the guard then keeps the cut text
 * and says the full text could not be saved. The files are left in place
 * when the session ends.
 */
export interface SpillWriter {
  create(nameHint: string, extension: "txt" | "json"): Promise<SpillFile>;
}

export interface FileSpillWriterOptions {
  /** Directory to write into; default: a new private directory under `root`. */
  dir?: string;
  /** Where the private directory is created; default: the system temp dir. */
  root?: string;
}

export function createFileSpillWriter(options: FileSpillWriterOptions = {}): SpillWriter {
  let dir: Promise<string> | undefined = options.dir ? Promise.resolve(options.dir) : undefined;
  const directory = () => {
    dir ??= createPrivateDir(SPILL_DIR_PREFIX, options.root);
    return dir;
  };
  const openIn = async (base: string, nameHint: string, extension: string) => {
    const name = guardFileName(nameHint, extension);
    const partial = path.join(base, partialFileName(name));
    // "wx": fail rather than follow or reuse anything already at that path.
    return { file: path.join(base, name), partial, handle: await open(partial, "wx", 0o600) };
  };
  return {
    async create(nameHint, extension) {
      const base = await directory();
      try {
        return handleSpillFile(await openIn(base, nameHint, extension));
      } catch (error) {
        // The directory went away (another session removed it as stale after a long quiet spell): make a new one.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT" || options.dir) throw error;
        dir = undefined;
        return handleSpillFile(await openIn(await directory(), nameHint, extension));
      }
    },
  };
}

function handleSpillFile({
  file,
  partial,
  handle,
}: {
  file: string;
  partial: string;
  handle: FileHandle;
}): SpillFile {
  let open = true;
  const closeHandle = async () => {
    if (!open) return;
    open = false;
    await handle.close();
  };
  return {
    path: file,
    async write(chunk) {
      // writeFile on a handle appends at the current position and retries short writes.
      await handle.writeFile(chunk, "utf8");
    },
    async close() {
      try {
        await closeHandle();
        await rename(partial, file);
      } catch (error) {
        await unlink(partial).catch(() => {});
        throw error;
      }
    },
    async discard() {
      await closeHandle().catch(() => {});
      await unlink(partial).catch(() => {});
    },
  };
}
