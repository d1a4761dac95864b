/**
 * Read-modify-write of one of the adapter's own JSON config files: under a
 * `<file>.lock`, atomically (tmp + rename), keeping every key the edit does
 * not touch. The edit says whether it changed anything; an unchanged file is
 * not rewritten. A file that is not a JSON object is refused, never replaced.
 */
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import { isPlainObject } from "../config-layer.js";
import { ConfigError } from "../errors.js";
import { formatProblem } from "../problems.js";
import { readJsonFile } from "../read-json-file.js";

/** Changes `document` in place; returns true when it changed something. */
export type ConfigEdit = (document: Record<string, unknown>) => boolean;

/** Returns whether the file was written. Throws `ConfigError("write_failed")` naming the file. */
export async function editConfigFile(file: string, edit: ConfigEdit): Promise<boolean> {
  try {
    return await withFileLock(file, async () => {
      const read = await readJsonFile(file);
      if (read.kind === "error") {
        throw new ConfigError(
          "write_failed",
          `Not changing ${formatProblem(read.problem)} (fix the file first)`,
        );
      }
      const document = read.kind === "ok" ? read.value : {};
      if (!isPlainObject(document)) {
        throw new ConfigError(
          "write_failed",
          `Not changing ${file}: expected a JSON object at the top level`,
        );
      }
      if (!edit(document)) return false;
      try {
        await writeFileAtomic(file, `${JSON.stringify(document, null, 2)}\n`);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "error";
        throw new ConfigError("write_failed", `Could not write ${file} (${code})`, { cause: error });
      }
      return true;
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError("write_failed", `Could not update ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** `document[key]` as an object, created when absent; throws when it holds something else. */
export function objectAt(
  document: Record<string, unknown>,
  key: string,
  file: string,
): Record<string, unknown> {
  const value = document[key] ?? {};
  if (!isPlainObject(value))
    throw new ConfigError("write_failed", `Not changing ${file}: ${key} is not an object`);
  document[key] = value;
  return value;
}
