import type { SpillFile } from "./spill-writer.js";

const BATCH_CHARS = 256 * 1024;

/**
 * Writes pieces of text to a spill file in batches of a few hundred KiB and
 * closes it (also on error). Returns the UTF-8 bytes written.
 */
export async function writeChunks(file: SpillFile, chunks: Iterable<string>): Promise<number> {
  let bytes = 0;
  let batch: string[] = [];
  let batchChars = 0;
  const flush = async () => {
    if (batchChars === 0) return;
    const text = batch.join("");
    batch = [];
    batchChars = 0;
    bytes += Buffer.byteLength(text, "utf8");
    await file.write(text);
  };
  try {
    for (const chunk of chunks) {
      batch.push(chunk);
      batchChars += chunk.length;
      if (batchChars >= BATCH_CHARS) await flush();
    }
    await flush();
  } finally {
    await file.close();
  }
  return bytes;
}
