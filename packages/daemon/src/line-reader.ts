/**
 * Newline framing for daemon connections and server pipes: feeds whole lines
 * to a callback, keeping the unfinished tail. A line longer than the bound is
 * dropped (reported through `oversized`) instead of growing without end.
 */

/** The longest line kept, in bytes: as large as transport's default frame bound. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** How much of a dropped line's end is kept: where a JSON-RPC answer written by the SDKs has its `id`. */
const TAIL_BYTES = 256;

export interface OversizedLine {
  bytes: number;
  tail: string;
}

export class LineReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Set while dropping an oversized line: its size so far and its latest bytes. */
  private skipping: { bytes: number; tail: Buffer } | undefined;
  private stopped = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly oversized: (line: OversizedLine) => void = () => {},
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    if (this.stopped) {
      this.chunks.push(chunk);
      return;
    }
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (this.skipping || this.buffered + piece.length > this.maxBytes) {
        const skipped = this.skip(piece);
        this.reset();
        this.oversized({ bytes: skipped.bytes, tail: skipped.tail.toString("utf8") });
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.chunks = [];
      this.buffered = 0;
      const text = line.toString("utf8").replace(/\r$/, "");
      if (text.trim() !== "") this.onLine(text);
      if (this.stopped) {
        this.chunks.push(chunk.subarray(start));
        return;
      }
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return;
    if (this.skipping || this.buffered + rest.length > this.maxBytes) this.skip(rest);
    else {
      this.chunks.push(rest);
      this.buffered += rest.length;
    }
  }

  /** Counts `piece` into the line being dropped (starting it from what was buffered). */
  private skip(piece: Buffer): { bytes: number; tail: Buffer } {
    if (!this.skipping) {
      this.skipping = {
        bytes: this.buffered,
        tail: Buffer.from(this.chunks.at(-1)?.subarray(-TAIL_BYTES) ?? []),
      };
      this.chunks = [];
      this.buffered = 0;
    }
    this.skipping.bytes += piece.length;
    this.skipping.tail = Buffer.concat([this.skipping.tail, piece.subarray(-TAIL_BYTES)]).subarray(
      -TAIL_BYTES,
    );
    return this.skipping;
  }

  /**
   * Delivers no more lines: what follows the current one stays buffered for
   * `takeRest()` (a hello reader hands it on to the MCP reader).
   */
  stop(): void {
    this.stopped = true;
  }

  /** The bytes not delivered as lines: after `stop()`, everything that followed; otherwise an unfinished line. */
  takeRest(): Buffer {
    const rest = Buffer.concat(this.chunks);
    this.reset();
    return rest;
  }

  reset(): void {
    this.chunks = [];
    this.buffered = 0;
    this.skipping = undefined;
  }
}

/**
 * A chunk handler that reads the first line and hands it over once, with
 * every byte that followed it (in the same chunk or not yet delivered).
 */
export function firstLineReader(
  onFirst: (line: string, rest: Buffer) => void,
  oversized: (line: OversizedLine) => void,
  maxBytes = MAX_LINE_BYTES,
): (chunk: Buffer) => void {
  let first: string | undefined;
  let handed = false;
  const reader = new LineReader(
    (line) => {
      first = line;
      reader.stop();
    },
    oversized,
    maxBytes,
  );
  return (chunk) => {
    if (handed) return;
    reader.push(chunk);
    if (first === undefined) return;
    handed = true;
    onFirst(first, reader.takeRest());
  };
}
