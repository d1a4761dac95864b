/**
 * The common result — a few short, clean text blocks — needs no bounding,
 * no spill file and no JSON walk for `details`. Recognising it with a few
 * cheap checks keeps the general machinery (generators, budgets, chunked
 * JSON sizing) off the path of nearly every call. Anything unusual (other
 * block types or keys, control characters, carriage returns, surrogates,
 * empty text, sizes near a limit) returns `undefined` and takes the
 * general path, which gives the same answer for everything accepted here.
 */
import type { ToolCallResult } from "@pi-mcp-adapter/core";

/** Text with any of these needs the general sanitizer. */
const NEEDS_SANITIZING =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

/** UTF-8 bytes per UTF-16 code unit at most (surrogates are refused above). */
const MAX_UTF8_PER_UNIT = 3;
/** JSON bytes per character at most (a `\u00XX` escape). */
const MAX_JSON_PER_CHAR = 6;
/** JSON punctuation and keys of one `{"type":"text","text":""}` block, and of the envelope. */
const JSON_BLOCK_OVERHEAD = 32;
const JSON_ENVELOPE_OVERHEAD = 48;

export interface SmallTextResult {
  texts: string[];
  /** Whether the raw result's JSON fits `detailsMaxBytes` for certain (else measure it). */
  detailsFit: boolean;
}

export function smallTextResult(
  result: ToolCallResult,
  limits: { maxBytes: number; maxLines: number; detailsMaxBytes: number },
): SmallTextResult | undefined {
  const blocks = result.content;
  if (!Array.isArray(blocks) || blocks.length === 0) return undefined;
  for (const key in result) if (key !== "content" && key !== "isError") return undefined;
  const texts: string[] = [];
  let units = 0;
  let lines = 0;
  for (const block of blocks as unknown[]) {
    if (block === null || typeof block !== "object") return undefined;
    for (const key in block) if (key !== "type" && key !== "text") return undefined;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type !== "text" || typeof text !== "string" || text.length === 0) return undefined;
    if (NEEDS_SANITIZING.test(text)) return undefined;
    units += text.length;
    if (units * MAX_UTF8_PER_UNIT > limits.maxBytes) return undefined;
    lines += countLines(text);
    if (lines > limits.maxLines) return undefined;
    texts.push(text);
  }
  const jsonBound = JSON_ENVELOPE_OVERHEAD + units * MAX_JSON_PER_CHAR + blocks.length * JSON_BLOCK_OVERHEAD;
  return { texts, detailsFit: jsonBound <= limits.detailsMaxBytes };
}

/** Lines as the budget counts them: newlines, plus one for a last line without one. */
function countLines(text: string): number {
  let lines = text.endsWith("\n") ? 0 : 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines += 1;
  return lines;
}
