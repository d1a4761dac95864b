import type { SpillFile } from "./spill-writer.js";

const BATCH_CHARS = 256 * 1024;

/**
 * Writes pieces of text to a spill file in batches of a few hundred KiB and
 * closes it; on a failed write the file is discarded and the error thrown.
 * Returns the UTF-8 bytes written.
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
  } catch (error) {
    await (file.discard ? file.discard() : file.close().catch(() => {}));
    throw error;
  }
  await file.close();
  return bytes;
}
