/**
 * Spill files: the full text (or raw JSON) of a result too large to show
 * inline, written piece by piece to a file of mode 0600 in a private
 * directory of this session. A file is written under a `.partial` name and
 * renamed when complete, so a reader never finds a cut file under the final
 * name, and a write that fails (disk full) removes what it wrote. `dispose()`
 * at session end removes the session's directory; files that earlier
 * sessions left behind (a crash) go after a day (see `stale-files.ts`).
 */
import { randomBytes } from "node:crypto";
import { type FileHandle, open, rename, rm, unlink } from "node:fs/promises";
import path from "node:path";
import { createPrivateDir, safeFileStem } from "./private-dir.js";

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
 * and says the full text could not be saved.
 */
export interface SpillWriter {
  create(nameHint: string, extension: "txt" | "json"): Promise<SpillFile>;
  /** Removes every file this writer made (session end). Safe to call twice. */
  dispose?(): Promise<void>;
}

export interface FileSpillWriterOptions {
  /** Directory to write into (never removed by `dispose`); default: a new private directory under `root`. */
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
    const file = path.join(base, `${safeFileStem(nameHint)}-${randomBytes(4).toString("hex")}.${extension}`);
    // "wx": fail rather than follow or reuse anything already at that path.
    return { file, handle: await open(`${file}.partial`, "wx", 0o600) };
  };
  return {
    async create(nameHint, extension) {
      const base = await directory();
      try {
        const { file, handle } = await openIn(base, nameHint, extension);
        return handleSpillFile(file, handle);
      } catch (error) {
        // The directory went away (another session removed it as stale after a long quiet spell): make a new one.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT" || options.dir) throw error;
        dir = undefined;
        const { file, handle } = await openIn(await directory(), nameHint, extension);
        return handleSpillFile(file, handle);
      }
    },
    async dispose() {
      const current = options.dir ? undefined : dir;
      dir = undefined;
      const made = await current?.catch(() => undefined);
      if (made) await rm(made, { recursive: true, force: true });
    },
  };
}

function handleSpillFile(file: string, handle: FileHandle): SpillFile {
  const partial = `${file}.partial`;
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
