/**
 * JSON in an expanded result row: which parts of a result are JSON (text
 * that parses as an object or array, an `application/json` or
 * `application/*+json` resource, a tool's structured content), and those
 * values as indented lines of coloured segments in Pi's syntax colours (the
 * theme keys Pi's own code highlighter uses, on both Pi lines). Text over
 * `JSON_DISPLAY_MAX_BYTES` or that does not parse stays plain. Display only:
 * the model's copy of a result is never touched here.
 */

/** Larger JSON is shown as plain text: indenting and colouring it would cost more than it helps. */
export const JSON_DISPLAY_MAX_BYTES = 64 * 1024;

/** A piece of a row, coloured with a theme key (or plain). */
export interface Segment {
  text: string;
  color?: string;
}

/** The value `text` holds when it is a JSON object or array within the size cap, else `undefined`. */
export function parseJsonText(text: string): unknown {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === "{" && last === "}") || (first === "[" && last === "]"))) return undefined;
  if (Buffer.byteLength(trimmed, "utf8") > JSON_DISPLAY_MAX_BYTES) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/** `application/json`, `application/*+json` (and `text/json`), parameters ignored. */
export function isJsonMimeType(mimeType: string | undefined): boolean {
  if (!mimeType) return false;
  const type = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type === "text/json" || /^application\/[\w.+-]+\+json$/.test(type);
}

/** The header line the output guard puts before a text resource: `[resource <uri> (<mime>)]`. */
const RESOURCE_HEADER = /^\[resource (\S+)(?: \(([^)]+)\))?\]\n/;

/** One text part of a result, split into the lines to show: JSON ones highlighted, the rest plain. */
export type TextPartView =
  | { kind: "plain"; text: string }
  | { kind: "json"; header?: string; value: unknown };

/**
 * What one text part shows as: a JSON resource (its header kept), JSON text,
 * or plain text. A resource of another type is plain even when its body parses.
 */
export function viewOfTextPart(text: string): TextPartView {
  const header = RESOURCE_HEADER.exec(text);
  if (header) {
    if (!isJsonMimeType(header[2])) return { kind: "plain", text };
    const value = parseJsonText(text.slice(header[0].length));
    return value === undefined
      ? { kind: "plain", text }
      : { kind: "json", header: header[0].trimEnd(), value };
  }
  const value = parseJsonText(text);
  return value === undefined ? { kind: "plain", text } : { kind: "json", value };
}

/**
 * `value` indented two spaces a level, each line as coloured segments
 * (keys, strings, numbers, literals, punctuation), or `undefined` when the
 * indented text is over the cap.
 */
export function highlightJson(value: unknown): Segment[][] | undefined {
  const pretty = JSON.stringify(value, null, 2);
  if (pretty === undefined || Buffer.byteLength(pretty, "utf8") > JSON_DISPLAY_MAX_BYTES) return undefined;
  return pretty.split("\n").map(highlightLine);
}

/** Tokens of `JSON.stringify` output: a string (a key when a colon follows), a number, a literal, punctuation. */
const TOKEN =
  /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)|([{}[\],:])|(\s+)/g;

function highlightLine(line: string): Segment[] {
  const segments: Segment[] = [];
  for (const match of line.matchAll(TOKEN)) {
    const [, string, colon, number, literal, punctuation, space] = match;
    if (string !== undefined) {
      segments.push({ text: string, color: colon ? "syntaxVariable" : "syntaxString" });
      if (colon) segments.push({ text: colon, color: "syntaxPunctuation" });
    } else if (number !== undefined || literal !== undefined) {
      segments.push({ text: (number ?? literal) as string, color: "syntaxNumber" });
    } else if (punctuation !== undefined) {
      segments.push({ text: punctuation, color: "syntaxPunctuation" });
    } else if (space !== undefined) {
      segments.push({ text: space });
    }
  }
  return segments;
}
