/**
 * Newline framing for daemon connections and server pipes, on core's bounded
 * `LineSplitter`: whole non-blank lines go to a callback, the unfinished tail
 * is kept, and a line longer than the bound is dropped (reported through
 * `oversized`) instead of growing without end.
 */
import { LineSplitter, type OversizedLine } from "@pi-mcp-adapter/core";

export type { OversizedLine };

/** The longest line kept, in bytes: as large as transport's default frame bound. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class LineReader {
  private readonly splitter: LineSplitter;
  /** Chunks that arrived after `stop()`, kept whole for `takeRest()`. */
  private held: Buffer[] = [];
  private stopped = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly oversized: (line: OversizedLine) => void = () => {},
    maxBytes = MAX_LINE_BYTES,
  ) {
    this.splitter = new LineSplitter(maxBytes);
  }

  push(chunk: Buffer): void {
    if (this.stopped) {
      this.held.push(chunk);
      return;
    }
    this.splitter.push(chunk, {
      line: (text) => {
        if (text.trim() !== "") this.onLine(text);
      },
      oversized: (line) => this.oversized(line),
      open: () => !this.stopped,
    });
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
    const rest = Buffer.concat([this.splitter.takeRest(), ...this.held]);
    this.held = [];
    return rest;
  }

  reset(): void {
    this.splitter.reset();
    this.held = [];
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
