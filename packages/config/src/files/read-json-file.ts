import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readlink } from "node:fs/promises";
import path from "node:path";
import { type ParseError, parse as parseJsonc, printParseErrorCode } from "jsonc-parser";
import type { ConfigProblem } from "../problems.js";

/** Files larger than this are refused without being read. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** A file's size and modification time as it was read (from the open handle, so they match the text). */
export interface ReadStamp {
  size: number;
  mtimeMs: number;
  /** SHA-256 (hex) of the bytes read, when they were read: with size and mtime, the file's identity. */
  sha256?: string;
}

export type TextFileResult =
  | { kind: "missing" }
  | { kind: "ok"; text: string; stamp?: ReadStamp }
  | { kind: "error"; problem: ConfigProblem; stamp?: ReadStamp };

export type JsonFileResult =
  | { kind: "missing" }
  | { kind: "ok"; value: unknown; stamp?: ReadStamp }
  | { kind: "error"; problem: ConfigProblem; stamp?: ReadStamp };

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
    const stamp = { size: info.size, mtimeMs: info.mtimeMs };
    if (info.isDirectory()) return { ...fail(file, "expected a file but found a directory"), stamp };
    if (!info.isFile()) return { ...fail(file, "expected a regular file"), stamp };
    if (info.size > MAX_CONFIG_BYTES) {
      return {
        ...fail(file, `file is ${info.size} bytes; config files are limited to ${MAX_CONFIG_BYTES}`),
        stamp,
      };
    }
    const bytes = await handle.readFile();
    let text = bytes.toString("utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return {
      kind: "ok",
      text,
      stamp: { ...stamp, sha256: createHash("sha256").update(bytes).digest("hex") },
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return (await danglingLink(file)) ?? { kind: "missing" };
    if (code === "EISDIR") return fail(file, "expected a file but found a directory");
    if (code === "ELOOP") return fail(file, "symbolic link loop");
    if (code === "EACCES" || code === "EPERM") return fail(file, "cannot read file (permission denied)");
    return fail(file, `cannot read file (${code ?? String(error)})`);
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Reads and parses one config file. Every config file is read as JSONC:
 * comments and trailing commas are accepted (the reference adapter, VS Code,
 * Cursor and OpenCode files allow them); anything else wrong is a problem
 * naming the line and column.
 */
export async function readJsonFile(file: string): Promise<JsonFileResult> {
  const read = await readConfigText(file);
  if (read.kind !== "ok") return read;
  return { ...parseJsoncText(file, read.text), stamp: read.stamp };
}

/** Parses JSONC text; the first syntax error becomes a problem with its 1-based line and column. */
export function parseJsoncText(file: string, text: string): Exclude<JsonFileResult, { kind: "missing" }> {
  // Most config files are plain JSON, which the native parser reads ~20× faster. Comments, trailing
  // commas and every error go to the JSONC parser, which also says where an error is.
  const plain = plainJson(text);
  if (plain !== undefined) return { kind: "ok", value: plain };
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first)
    return fail(
      file,
      `invalid JSON at ${lineColumn(text, first.offset)}: ${describeSyntaxError(first, text)}`,
    );
  if (value === undefined) return fail(file, "invalid JSON at line 1 column 1: the file holds no JSON value");
  return { kind: "ok", value };
}

/** What went wrong, in words; the offending character is shown only when it is punctuation (never a value's text). */
function describeSyntaxError(error: ParseError, text: string): string {
  const found = text[error.offset];
  const shown = found !== undefined && /^[^\w\s"'`]$/.test(found) ? ` (found "${found}")` : "";
  const code = printParseErrorCode(error.error);
  return `${SYNTAX_ERRORS[code] ?? code}${shown}`;
}

const SYNTAX_ERRORS: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," or a closing bracket',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: "unexpected text after the end of the document",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "comment not closed",
  UnexpectedEndOfString: "string not closed",
  UnexpectedEndOfNumber: "number cut short",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "control character in a string",
};

/** `line L column C` (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line} column ${column}`;
}

/** A symbolic link whose target is missing is a warning, not silence: the user meant this file to be read. */
async function danglingLink(file: string): Promise<TextFileResult | undefined> {
  try {
    if (!(await lstat(file)).isSymbolicLink()) return undefined;
    const target = path.resolve(path.dirname(file), await readlink(file));
    return {
      kind: "error",
      problem: {
        severity: "warning",
        file,
        message: `symbolic link to ${target}, which does not exist; this config file is not loaded`,
      },
    };
  } catch {
    return undefined;
  }
}

function fail(file: string, message: string): { kind: "error"; problem: ConfigProblem } {
  return { kind: "error", problem: { severity: "error", file, message } };
}

/** `text` as plain JSON, or `undefined` when it is not (JSONC, invalid, or empty). */
function plainJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
