/**
 * Removes terminal control sequences and bidirectional overrides from text a
 * server sent, so it cannot move the cursor, recolour or hide text in the
 * terminal, or reorder what a reader sees. Newlines and tabs stay; a carriage
 * return that does not end a line becomes a newline, so it cannot overwrite
 * the start of a line either. Unpaired surrogates become U+FFFD.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ANSI_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const LONE_CARRIAGE_RETURN = /\r(?!\n)/g;
/** Half of a surrogate pair on its own is not text; it becomes U+FFFD, as UTF-8 would write it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function stripControlSequences(text: string): string {
  return text
    .replace(ANSI_SEQUENCE, "")
    .replace(CONTROL_CHARS, "")
    .replace(BIDI_CONTROLS, "")
    .replace(LONE_CARRIAGE_RETURN, "\n")
    .replace(LONE_SURROGATE, "\ufffd");
}

/** Longest escape sequence kept whole across a chunk boundary; longer ones lose only their escape byte. */
const MAX_SEQUENCE_LOOKBACK = 256;

/**
 * `stripControlSequences` over a long text, one chunk at a time, so a huge
 * result is never copied whole. Chunk ends move back so that a surrogate
 * pair, a `\r\n`, or an escape sequence near the end is not split.
 */
export function* stripControlSequencesInChunks(text: string, chunkSize = 64 * 1024): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + chunkSize);
    if (end < text.length) end = safeChunkEnd(text, start, end);
    yield stripControlSequences(text.slice(start, end));
    start = end;
  }
}

function safeChunkEnd(text: string, start: number, end: number): number {
  // Look only at the tail: lastIndexOf on the whole text would rescan it for every chunk.
  const tailStart = Math.max(start + 1, end - MAX_SEQUENCE_LOOKBACK);
  const inTail = text.slice(tailStart, end).lastIndexOf("\u001b");
  if (inTail !== -1) end = tailStart + inTail;
  const last = text.charCodeAt(end - 1);
  if (end - 1 > start && (last === 0x0d || (last >= 0xd800 && last <= 0xdbff))) end -= 1;
  return end;
}
