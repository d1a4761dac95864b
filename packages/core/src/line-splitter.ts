/**
 * Splits a byte stream into newline-ended lines, bounded: a line longer than
 * `maxBytes` is not kept in memory but counted, and reported when it ends
 * with its size and its first and last bytes (where a JSON-RPC answer's `id`
 * is found). Chunks are joined once per line, not once per chunk, so a large
 * line costs one copy. A sink that closes keeps what followed its last line
 * for `takeRest()` (a reader of a first line hands the rest on).
 */

/** How much of an oversized line's start and end is kept. */
const EDGE_BYTES = 256;

export interface OversizedLine {
  bytes: number;
  head: string;
  tail: string;
}

export interface LineSink {
  line(text: string): void;
  oversized(line: OversizedLine): void;
  /** False once the reader should stop delivering (the transport closed, the first line was read). */
  open(): boolean;
}

export class LineSplitter {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Set while skipping an oversized line: its size so far, its head, and its latest bytes. */
  private skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer, sink: LineSink): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (this.skipping || this.buffered + piece.length > this.maxBytes) {
        this.skip(piece);
        const skipped = this.skipping as { bytes: number; head: Buffer; tail: Buffer };
        this.skipping = undefined;
        sink.oversized({
          bytes: skipped.bytes,
          head: skipped.head.toString("utf8"),
          tail: skipped.tail.toString("utf8"),
        });
      } else {
        const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
        this.chunks = [];
        this.buffered = 0;
        sink.line(line.toString("utf8").replace(/\r$/, ""));
      }
      if (!sink.open()) {
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

  /** The bytes not delivered as lines (what followed a closing sink's last line, or an unfinished line). */
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

  /** Counts `piece` into the line being skipped (starting it from what was buffered). */
  private skip(piece: Buffer): void {
    if (!this.skipping) {
      const parts = [...this.chunks, piece];
      const head = Buffer.concat(parts, Math.min(EDGE_BYTES, this.buffered + piece.length));
      const tail = Buffer.from(this.chunks.at(-1)?.subarray(-EDGE_BYTES) ?? []);
      this.skipping = { bytes: this.buffered, head, tail };
      this.chunks = [];
      this.buffered = 0;
    }
    this.skipping.bytes += piece.length;
    const tail = Buffer.concat([this.skipping.tail, piece.subarray(-EDGE_BYTES)]);
    this.skipping.tail = tail.subarray(-EDGE_BYTES);
  }
}
