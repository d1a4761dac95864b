/**
 * Config files read with their identity noted: each file's size and
 * modification time as it was read (from the open handle, so they describe
 * the text that was parsed), or that it did not exist. A host compares them
 * later to say "this file changed since; reload to apply it" without
 * stat-ing every file again after the load.
 */
import { stat } from "node:fs/promises";
import {
  type JsonFileResult,
  type ReadStamp,
  readConfigText,
  readJsonFile,
  type TextFileResult,
} from "./read-json-file.js";

/** One config file as the loader found it. */
export type ConfigFileStamp =
  | { file: string; missing: true }
  | { file: string; missing?: undefined; size: number; mtimeMs: number };

/** Reads config files as `readConfigText` / `readJsonFile` do, noting each file's stamp. */
export interface StampedReads {
  readText(file: string): Promise<TextFileResult>;
  readJson(file: string): Promise<JsonFileResult>;
  /** Notes a file the loader only looks for without reading it; says whether it exists. */
  exists(file: string): Promise<boolean>;
  /** Every file read or looked for, in that order (the first note of a file is kept). */
  readonly stamps: readonly ConfigFileStamp[];
}

export function createStampedReads(): StampedReads {
  const stamps = new Map<string, ConfigFileStamp>();
  const note = async (file: string, read: { kind: string; stamp?: ReadStamp }) => {
    if (stamps.has(file)) return;
    // A read that failed before the file was open (permission denied) still has an identity on disk.
    const stamp =
      read.kind === "missing" ? { file, missing: true as const } : await stampOf(file, read.stamp);
    stamps.set(file, stamp);
  };
  return {
    async readText(file) {
      const read = await readConfigText(file);
      await note(file, read);
      return read;
    },
    async readJson(file) {
      const read = await readJsonFile(file);
      await note(file, read);
      return read;
    },
    async exists(file) {
      const stamp = await stampOf(file, undefined);
      if (!stamps.has(file)) stamps.set(file, stamp);
      return !stamp.missing;
    },
    get stamps() {
      return [...stamps.values()];
    },
  };
}

async function stampOf(file: string, known: ReadStamp | undefined): Promise<ConfigFileStamp> {
  if (known) return { file, size: known.size, mtimeMs: known.mtimeMs };
  try {
    const { size, mtimeMs } = await stat(file);
    return { file, size, mtimeMs };
  } catch {
    return { file, missing: true };
  }
}
