/**
 * Writes the panel's edits into the adapter's own file only — the project's
 * `.pi/mcp-adapter.json` or the agent dir's `mcp-adapter.json` — atomically
 * under the same `<file>.lock` the enable/disable commands use, keeping every
 * other key. Host configs (`.mcp.json`, Cursor's, Pi's `mcp.json`) and
 * credentials are never written.
 */
import path from "node:path";
import {
  AGENT_CONFIG_FILE,
  defaultConfigEnvironment,
  formatProblem,
  PROJECT_OVERRIDE_FILE,
  readJsonFile,
} from "@pi-mcp-adapter/config";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import { applyEdits, type SaveScope, type ServerEdit } from "./panel-model.js";

/** The file a save in `scope` writes. */
export function panelSaveFile(scope: SaveScope, cwd: string): string {
  return scope === "project"
    ? path.join(cwd, PROJECT_OVERRIDE_FILE)
    : path.join(defaultConfigEnvironment().agentDir, AGENT_CONFIG_FILE);
}

export interface SavePanelOptions {
  scope: SaveScope;
  cwd: string;
  edits: Readonly<Record<string, ServerEdit>>;
  /** The host's trust answer; `false` refuses to write the project file. */
  trusted?: boolean;
}

/** Returns the file written; throws an error naming the file when it cannot be written. */
export async function savePanelEdits(options: SavePanelOptions): Promise<string> {
  const file = panelSaveFile(options.scope, options.cwd);
  if (options.scope === "project" && options.trusted === false) {
    throw new Error(`Not changing ${file}: the project is not trusted (tab switches to the user file)`);
  }
  await withFileLock(file, async () => {
    const read = await readJsonFile(file);
    if (read.kind === "error")
      throw new Error(`Not changing ${formatProblem(read.problem)} (fix the file first)`);
    const document = read.kind === "ok" ? read.value : {};
    if (typeof document !== "object" || document === null || Array.isArray(document)) {
      throw new Error(`Not changing ${file}: expected a JSON object at the top level`);
    }
    let next: Record<string, unknown>;
    try {
      next = applyEdits(document as Record<string, unknown>, options.edits);
    } catch (error) {
      throw new Error(`Not changing ${file}: ${(error as Error).message}`);
    }
    await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
  });
  return file;
}
