/**
 * Read-modify-write of one JSON(C) config file, under a `<file>.lock` and
 * atomically (tmp + rename). The edit works on the parsed document; what it
 * changed is written back as text edits (jsonc-parser's `modify`), so
 * comments, formatting and every untouched byte stay as they were. The file
 * keeps its mode (a 0600 file holding tokens stays 0600); a new file is
 * created 0600, since config files may hold secrets. An unchanged file is
 * not rewritten, and a file that is not a JSON object is refused, never
 * replaced. A symbolic link is followed: its target is written.
 */
import { realpath, stat } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import { applyEdits, type FormattingOptions, type JSONPath, modify } from "jsonc-parser";
import { ConfigError } from "../errors.js";
import { parseJsoncText, readConfigText } from "../files/read-json-file.js";
import { isPlainObject } from "../layers/config-layer.js";
import { formatProblem } from "../problems.js";
import { insertPropertyEdits, removePropertyEdits } from "./jsonc-property-edits.js";

/** Changes `document` in place; returns true when it changed something. */
export type ConfigEdit = (document: Record<string, unknown>) => boolean;

/** Mode of config files this module creates. */
export const NEW_CONFIG_FILE_MODE = 0o600;

/** Returns whether the file was written. Throws `ConfigError("write_failed")` naming the file. */
export async function editConfigFile(file: string, edit: ConfigEdit): Promise<boolean> {
  try {
    return await withFileLock(file, async () => {
      const read = await readConfigText(file);
      if (read.kind === "error") throw refusal(formatProblem(read.problem));
      const text = read.kind === "ok" ? read.text : "";
      const parsed = text.trim() ? parseJsoncText(file, text) : { kind: "ok" as const, value: {} };
      if (parsed.kind !== "ok") throw refusal(parsed.kind === "error" ? formatProblem(parsed.problem) : file);
      const before = parsed.value;
      if (!isPlainObject(before)) {
        throw new ConfigError(
          "write_failed",
          `Not changing ${file}: expected a JSON object at the top level`,
        );
      }
      const document = structuredClone(before);
      if (!edit(document)) return false;
      const next = applyDocumentChanges(text, before, document);
      if (next === text) return false;
      await writeKeepingMode(file, next);
      return true;
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError("write_failed", `Could not update ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function refusal(what: string): ConfigError {
  return new ConfigError("write_failed", `Not changing ${what} (fix the file first)`);
}

/** `text` with every difference between `before` and `after` applied as a minimal edit. */
export function applyDocumentChanges(text: string, before: unknown, after: unknown): string {
  const options = formattingOf(text);
  let result = text.trim() ? text : "{}\n";
  const unit = options.insertSpaces ? " ".repeat(options.tabSize) : "\t";
  for (const [path, value, added] of differences(before, after, [])) {
    // A removal is never reformatted (only the removed text goes); an addition touches no other line.
    const key = path.at(-1);
    const edits =
      value === undefined
        ? (removePropertyEdits(result, path) ?? modify(result, path, undefined, {}))
        : ((added && typeof key === "string"
            ? insertPropertyEdits(result, path.slice(0, -1), key, value, unit, options.eol)
            : undefined) ?? modify(result, path, value, { formattingOptions: options }));
    result = applyEdits(result, edits);
  }
  return result.endsWith("\n") ? result : `${result}\n`;
}

/** Paths whose values differ (and whether the key is new); objects are compared key by key, anything else as a whole. */
function differences(before: unknown, after: unknown, path: JSONPath): [JSONPath, unknown, boolean][] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) =>
      Object.hasOwn(before, key)
        ? differences(before[key], after[key], [...path, key])
        : [[[...path, key], after[key], true] as [JSONPath, unknown, boolean]],
    );
  }
  return isDeepStrictEqual(before, after) ? [] : [[path, after, false]];
}

/** Indentation and line ends as the file already has them (two spaces and `\n` for a new file). */
function formattingOf(text: string): Required<Pick<FormattingOptions, "insertSpaces" | "tabSize" | "eol">> {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/** Replaces the file's text atomically, keeping its mode (0600 when new). Call it under the file's lock. */
export async function writeKeepingMode(file: string, text: string): Promise<void> {
  const target = await realpath(file).catch(() => file);
  const mode = await stat(target).then(
    (info) => info.mode & 0o777,
    () => NEW_CONFIG_FILE_MODE,
  );
  try {
    await writeFileAtomic(target, text, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new ConfigError("write_failed", `Could not write ${file} (${code})`, { cause: error });
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
