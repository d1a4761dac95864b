/**
 * Writes the panel's edits into the adapter's own file only — the project's
 * `.pi/mcp-adapter.json` or the agent dir's `mcp-adapter.json` — through the
 * same writer the enable/disable commands use (locked, atomic, keeping every
 * other key, its comments and the file's mode). Host configs (`.mcp.json`, Cursor's, Pi's `mcp.json`) and
 * credentials are never written.
 */
import path from "node:path";
import { AGENT_CONFIG_FILE, ConfigError, PROJECT_OVERRIDE_FILE } from "@pi-mcp-adapter/config";
import { processEnvironment } from "@pi-mcp-adapter/core";
import { applyEdits, type SaveScope, type ServerEdit } from "./panel-model.js";

/** The file a save in `scope` writes (the user file in `agentDir`, default this process's agent dir). */
export function panelSaveFile(
  scope: SaveScope,
  cwd: string,
  agentDir = processEnvironment().agentDir,
): string {
  return scope === "project" ? path.join(cwd, PROJECT_OVERRIDE_FILE) : path.join(agentDir, AGENT_CONFIG_FILE);
}

export interface SavePanelOptions {
  scope: SaveScope;
  cwd: string;
  edits: Readonly<Record<string, ServerEdit>>;
  /** The host's trust answer; `false` refuses to write the project file. */
  trusted?: boolean;
  /** The agent dir the host handed in; default this process's. */
  agentDir?: string;
}

/** Returns the file written; throws an error naming the file when it cannot be written. */
export async function savePanelEdits(options: SavePanelOptions): Promise<string> {
  const file = panelSaveFile(options.scope, options.cwd, options.agentDir);
  if (options.scope === "project" && options.trusted === false) {
    throw new Error(`Not changing ${file}: the project is not trusted (tab switches to the user file)`);
  }
  // config's writer: locked, atomic, the file's mode and every untouched byte (comments too) kept.
  // Config's writer loads when the panel saves, not with the extension.
  const { editConfigFile } = await import("@pi-mcp-adapter/config/setup");
  await editConfigFile(file, (document) => {
    let next: Record<string, unknown>;
    try {
      next = applyEdits(document, options.edits);
    } catch (error) {
      throw new ConfigError("write_failed", `Not changing ${file}: ${(error as Error).message}`);
    }
    for (const key of Object.keys(document)) delete document[key];
    Object.assign(document, next);
    return true;
  });
  return file;
}
