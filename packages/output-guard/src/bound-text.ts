/**
 * Caps the text of one result: text blocks are sanitized and kept inline up
 * to the byte and line budget; once something does not fit, the full text of
 * all blocks goes to one spill file, written as it is produced, so a huge
 * text is never held twice.
 */
import { formatBytes } from "./blob-store.js";
import { InlineBudget, measureText, type TextTotals } from "./inline-budget.js";
import type { SpillFile, SpillWriter } from "./spill-writer.js";
import { stripControlSequencesInChunks } from "./strip-control.js";

export interface BoundTextOptions {
  maxBytes: number;
  maxLines: number;
  spill: SpillWriter;
  nameHint: string;
}

export interface SpillInfo {
  /** The file holding the full text; absent when it could not be written. */
  path?: string;
  error?: string;
  total: TextTotals;
  shown: TextTotals;
}

export interface BoundTextResult {
  /** Inline text per input text, same order; `undefined` for a text dropped entirely. */
  texts: (string | undefined)[];
  /** Set when something was cut. */
  spill?: SpillInfo;
  /** A line for the model saying what was cut and where the rest is. */
  notice?: string;
}

const BATCH_CHARS = 256 * 1024;

export async function boundText(texts: string[], options: BoundTextOptions): Promise<BoundTextResult> {
  const budget = new InlineBudget(options.maxBytes, options.maxLines);
  const total: TextTotals = { bytes: 0, lines: 0 };
  const inline: (string | undefined)[] = [];
  const whole: string[] = []; // full sanitized text of the blocks that fit, for the spill file
  const sink = new SpillSink(options.spill, options.nameHint);
  let started = false;

  for (const text of texts) {
    const kept: string[] = [];
    let blockStarted = false;
    let endsWithNewline = false;
    for (const chunk of stripControlSequencesInChunks(text)) {
      if (chunk.length === 0) continue;
      if (!blockStarted) {
        blockStarted = true;
        // Blocks after the first are separated by a line break, inline and in the spill file.
        if (started) {
          if (sink.active) await sink.write("\n");
          else if (!budget.startBlock()) await sink.open(`${whole.join("\n")}\n`);
        }
        started = true;
      }
      total.bytes += Buffer.byteLength(chunk, "utf8");
      total.lines += countNewlines(chunk);
      endsWithNewline = chunk.endsWith("\n");
      if (sink.active) {
        await sink.write(chunk);
        continue;
      }
      const before = kept.join("");
      kept.push(budget.take(chunk));
      if (budget.exhausted) {
        await sink.open(whole.length > 0 ? `${whole.join("\n")}\n${before}` : before);
        await sink.write(chunk);
      }
    }
    if (blockStarted && !endsWithNewline) total.lines += 1;
    const shown = kept.join("");
    inline.push(shown.length > 0 ? shown : undefined);
    if (blockStarted && !sink.active) whole.push(shown);
  }

  if (!sink.opened) return { texts: inline };
  const spill = await sink.close();
  const shown = inline.reduce<TextTotals>(
    (acc, t) => {
      if (t === undefined) return acc;
      const m = measureText(t);
      return { bytes: acc.bytes + m.bytes, lines: acc.lines + m.lines };
    },
    { bytes: 0, lines: 0 },
  );
  const info: SpillInfo = { ...spill, total, shown };
  return { texts: inline, spill: info, notice: truncationNotice(info) };
}

function truncationNotice(info: SpillInfo): string {
  const head =
    `[Output truncated: showing ${formatBytes(info.shown.bytes)} of ${formatBytes(info.total.bytes)}` +
    ` (${info.shown.lines} of ${info.total.lines} lines).`;
  if (info.path) return `${head} Full text saved to ${info.path} — read or grep that file for the rest.]`;
  return `${head} The full text could not be saved: ${info.error ?? "unknown error"}.]`;
}

function countNewlines(text: string): number {
  let count = 0;
  let at = text.indexOf("\n");
  while (at !== -1) {
    count += 1;
    at = text.indexOf("\n", at + 1);
  }
  return count;
}

/** The spill file, opened on first overflow; writes are batched, and a failure is kept, not thrown. */
class SpillSink {
  opened = false;
  private file: SpillFile | undefined;
  private error: string | undefined;
  private batch: string[] = [];
  private batchChars = 0;

  constructor(
    private readonly writer: SpillWriter,
    private readonly nameHint: string,
  ) {}

  get active(): boolean {
    return this.opened;
  }

  async open(first: string): Promise<void> {
    this.opened = true;
    try {
      this.file = await this.writer.create(this.nameHint, "txt");
    } catch (error) {
      this.fail(error);
    }
    await this.write(first);
  }

  async write(chunk: string): Promise<void> {
    if (!this.file || chunk.length === 0) return;
    this.batch.push(chunk);
    this.batchChars += chunk.length;
    if (this.batchChars >= BATCH_CHARS) await this.flush();
  }

  async close(): Promise<{ path?: string; error?: string }> {
    const file = this.file;
    if (!file) return { error: this.error };
    await this.flush();
    try {
      await file.close();
    } catch (error) {
      this.fail(error);
    }
    return this.error ? { error: this.error } : { path: file.path };
  }

  private async flush(): Promise<void> {
    const file = this.file;
    if (!file || this.batchChars === 0) return;
    const text = this.batch.join("");
    this.batch = [];
    this.batchChars = 0;
    try {
      await file.write(text);
    } catch (error) {
      this.fail(error);
      // A partial file is never left behind (a writer without `discard` keeps what it has).
      await (file.discard ? file.discard() : file.close().catch(() => {}));
      this.file = undefined;
    }
  }

  private fail(error: unknown): void {
    this.error ??= error instanceof Error ? error.message : String(error);
  }
}
