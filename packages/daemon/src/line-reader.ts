/**
 * Newline framing for daemon connections and server pipes: feeds whole lines
 * to a callback, keeping the unfinished tail. A line longer than the bound is
 * dropped (reported through `oversized`) instead of growing without end.
 */

/** The longest line kept, in bytes: as large as transport's default frame bound. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class LineReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private skipping = false;
  private stopped = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly oversized: (bytes: number) => void = () => {},
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
        this.oversized(this.buffered + piece.length);
        this.reset();
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
    if (this.buffered + rest.length > this.maxBytes) {
      this.skipping = true;
      this.chunks = [];
      this.buffered += rest.length;
      return;
    }
    if (!this.skipping) {
      this.chunks.push(rest);
      this.buffered += rest.length;
    }
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
    this.skipping = false;
  }
}

/**
 * A chunk handler that reads the first line and hands it over once, with
 * every byte that followed it (in the same chunk or not yet delivered).
 */
export function firstLineReader(
  onFirst: (line: string, rest: Buffer) => void,
  oversized: (bytes: number) => void,
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
