import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { type ParseError, parse as parseJsonc, printParseErrorCode } from "jsonc-parser";
import type { ConfigProblem } from "./problems.js";

/** Files larger than this are refused without being read. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export type TextFileResult =
  | { kind: "missing" }
  | { kind: "ok"; text: string }
  | { kind: "error"; problem: ConfigProblem };

export type JsonFileResult =
  | { kind: "missing" }
  | { kind: "ok"; value: unknown }
  | { kind: "error"; problem: ConfigProblem };

/**
 * Reads one config file as UTF-8 text (BOM removed). A missing file is not a
 * problem; anything else that goes wrong is returned as a problem naming the
 * file, never thrown. The size is checked before reading.
 */
export async function readConfigText(file: string): Promise<TextFileResult> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // Non-blocking, so a FIFO in place of a config file cannot hang the loader.
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const info = await handle.stat();
    if (info.isDirectory()) return fail(file, "expected a file but found a directory");
    if (!info.isFile()) return fail(file, "expected a regular file");
    if (info.size > MAX_CONFIG_BYTES) {
      return fail(file, `file is ${info.size} bytes; config files are limited to ${MAX_CONFIG_BYTES}`);
    }
    let text = (await handle.readFile()).toString("utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { kind: "ok", text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    if (code === "EISDIR") return fail(file, "expected a file but found a directory");
    if (code === "ELOOP") return fail(file, "symbolic link loop");
    if (code === "EACCES" || code === "EPERM") return fail(file, "cannot read file (permission denied)");
    return fail(file, `cannot read file (${code ?? String(error)})`);
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Reads and parses one JSON config file. With `jsonc`, comments and trailing
 * commas are accepted (VS Code, Cursor and OpenCode files allow them).
 */
export async function readJsonFile(file: string, options: { jsonc?: boolean } = {}): Promise<JsonFileResult> {
  const read = await readConfigText(file);
  if (read.kind !== "ok") return read;
  return options.jsonc ? parseJsoncText(file, read.text) : parseJsonText(file, read.text);
}

function parseJsonText(file: string, text: string): JsonFileResult {
  try {
    return { kind: "ok", value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const match = /position (\d+)/.exec(message);
    const position = match ? Number(match[1]) : text.length;
    return fail(file, `invalid JSON at ${lineColumn(text, position)}: ${message.replace(/ in JSON.*$/, "")}`);
  }
}

function parseJsoncText(file: string, text: string): JsonFileResult {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    return fail(
      file,
      `invalid JSON at ${lineColumn(text, first.offset)}: ${printParseErrorCode(first.error)}`,
    );
  }
  return { kind: "ok", value };
}

/** `line L column C` (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line} column ${column}`;
}

function fail(file: string, message: string): { kind: "error"; problem: ConfigProblem } {
  return { kind: "error", problem: { severity: "error", file, message } };
}
