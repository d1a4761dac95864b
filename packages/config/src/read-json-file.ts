import { readFile } from "node:fs/promises";
import type { ConfigProblem } from "./problems.js";

/** Files larger than this are refused rather than parsed. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export type JsonFileResult =
  | { kind: "missing" }
  | { kind: "ok"; value: unknown }
  | { kind: "error"; problem: ConfigProblem };

/**
 * Reads and parses one JSON config file. A missing file is not a problem; any
 * other failure is returned as a problem naming the file (and, for syntax
 * errors, the line and column), never thrown.
 */
export async function readJsonFile(file: string): Promise<JsonFileResult> {
  let text: string;
  try {
    const buffer = await readFile(file);
    if (buffer.byteLength > MAX_CONFIG_BYTES) {
      return fail(
        file,
        `file is ${buffer.byteLength} bytes; config files are limited to ${MAX_CONFIG_BYTES}`,
      );
    }
    text = buffer.toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    if (code === "EISDIR") return fail(file, "expected a file but found a directory");
    if (code === "ELOOP") return fail(file, "symbolic link loop");
    return fail(file, `cannot read file (${code ?? String(error)})`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { kind: "ok", value: JSON.parse(text) };
  } catch (error) {
    return fail(
      file,
      `invalid JSON${locate(text, error)}: ${(error as Error).message.replace(/ in JSON.*$/, "")}`,
    );
  }
}

function fail(file: string, message: string): JsonFileResult {
  return { kind: "error", problem: { severity: "error", file, message } };
}

/** ` at line L column C`, from the position V8 reports (its wording varies across Node versions). */
function locate(text: string, error: unknown): string {
  const match = /position (\d+)/.exec(String((error as Error).message));
  const position = match ? Number(match[1]) : text.length;
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  return ` at line ${line} column ${column}`;
}
