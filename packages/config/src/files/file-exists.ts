import { access } from "node:fs/promises";

/** Whether a path exists (any kind, readable or not). */
export async function fileExists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
