/**
 * Spill files: the full text (or raw JSON) of a result too large to show
 * inline, written piece by piece to a new file of mode 0600 in a private
 * directory. Spill files are left in place for the agent to read or grep;
 * they are not removed at session end.
 */
import { randomBytes } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import { createPrivateDir, safeFileStem } from "./private-dir.js";

/** An open spill file. `write` appends; `close` must be called once. */
export interface SpillFile {
  readonly path: string;
  write(chunk: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Creates spill files. The default writes to the disk; tests or other hosts
 * may pass their own. `create` may throw; the guard then keeps the cut text
 * and says the full text could not be saved.
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
    dir ??= createPrivateDir("pi-mcp-adapter-spill-", options.root);
    return dir;
  };
  return {
    async create(nameHint, extension) {
      const file = path.join(
        await directory(),
        `${safeFileStem(nameHint)}-${randomBytes(4).toString("hex")}.${extension}`,
      );
      // "wx": fail rather than follow or reuse anything already at that path.
      const handle = await open(file, "wx", 0o600);
      return handleSpillFile(file, handle);
    },
  };
}

function handleSpillFile(file: string, handle: FileHandle): SpillFile {
  return {
    path: file,
    async write(chunk) {
      // writeFile on a handle appends at the current position and retries short writes.
      await handle.writeFile(chunk, "utf8");
    },
    async close() {
      await handle.close();
    },
  };
}
