/**
 * How much text may stay inline: a byte budget (UTF-8) and a line budget,
 * spent chunk by chunk across all text blocks of one result. Cuts fall on a
 * character boundary, never inside a multi-byte character or surrogate pair.
 */

export interface TextTotals {
  bytes: number;
  lines: number;
}

export class InlineBudget {
  private bytesLeft: number;
  private newlinesLeft: number;
  /** True once some text did not fit. */
  exhausted = false;
  readonly kept: TextTotals = { bytes: 0, lines: 0 };

  constructor(maxBytes: number, maxLines: number) {
    this.bytesLeft = Math.max(0, Math.floor(maxBytes));
    // N lines hold N - 1 line breaks; the break that would start line N + 1 is where the cut goes.
    this.newlinesLeft = Math.max(0, Math.floor(maxLines) - 1);
    if (maxLines < 1) this.bytesLeft = 0;
  }

  /**
   * Call before each text block but the first: blocks are shown on lines of
   * their own, so each new block spends a line break.
   */
  startBlock(): boolean {
    if (this.exhausted) return false;
    if (this.newlinesLeft === 0 || this.bytesLeft === 0) {
      this.exhausted = true;
      return false;
    }
    this.spend(1, 1);
    return true;
  }

  /** The part of `chunk` that still fits; sets `exhausted` when anything was left out. */
  take(chunk: string): string {
    if (this.exhausted) return chunk.length === 0 ? "" : this.markExhausted("");
    let bytes = 0;
    let newlines = 0;
    let i = 0;
    while (i < chunk.length) {
      const code = chunk.charCodeAt(i);
      let width: number;
      let units = 1;
      if (code < 0x80) width = 1;
      else if (code < 0x800) width = 2;
      else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(chunk.charCodeAt(i + 1))) {
        width = 4;
        units = 2;
      } else width = 3; // includes a lone surrogate, written as U+FFFD
      if (code === 0x0a) {
        if (newlines === this.newlinesLeft) return this.finish(chunk.slice(0, i), bytes, newlines);
        newlines += 1;
      }
      if (bytes + width > this.bytesLeft) return this.finish(chunk.slice(0, i), bytes, newlines);
      bytes += width;
      i += units;
    }
    this.spend(bytes, newlines);
    return chunk;
  }

  private finish(kept: string, bytes: number, newlines: number): string {
    this.spend(bytes, newlines);
    return this.markExhausted(kept);
  }

  private spend(bytes: number, newlines: number): void {
    this.bytesLeft -= bytes;
    this.newlinesLeft -= newlines;
    this.kept.bytes += bytes;
    this.kept.lines += newlines;
  }

  private markExhausted(kept: string): string {
    this.exhausted = true;
    return kept;
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** UTF-8 size and line count of a text, without copying it. */
export function measureText(text: string): TextTotals {
  let lines = 0;
  let at = text.indexOf("\n");
  while (at !== -1) {
    lines += 1;
    at = text.indexOf("\n", at + 1);
  }
  if (text.length > 0 && !text.endsWith("\n")) lines += 1;
  return { bytes: Buffer.byteLength(text, "utf8"), lines };
}
