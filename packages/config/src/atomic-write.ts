/**
 * Whole-file writes that readers and other writers never see torn: write a
 * sibling `<file>.<pid>.<n>.tmp`, then rename it over the target.
 */
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

let counter = 0;

export async function writeFileAtomic(
  file: string,
  text: string,
  options: { mode?: number } = {},
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  counter += 1;
  const tmp = `${file}.${process.pid}.${counter}.tmp`;
  try {
    await writeFile(tmp, text, { mode: options.mode ?? 0o644 });
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
}
