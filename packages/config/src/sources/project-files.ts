/**
 * The project's files (`.mcp.json`, `.pi/mcp-adapter.json`) of the project
 * directory and of the ancestors the user's `ancestorConfigRoots` allow,
 * nearest last. In an untrusted project none is read: each one there is
 * reported instead. Pi's own `.pi/mcp.json` is noted, never read.
 */
import path from "node:path";
import { ancestorDirs, projectConfigFiles } from "../files/config-sources.js";
import { fileExists } from "../files/file-exists.js";
import { mergeConfigLayers } from "../merge/merge-config-layers.js";
import {
  nothingRead,
  readFileLayer,
  type SourceEnv,
  type SourceRead,
  type SourceTrust,
} from "./config-source.js";

export async function readProjectFiles(env: SourceEnv, trust: SourceTrust): Promise<SourceRead> {
  const found = nothingRead();
  if (!trust.projectReadable) {
    for (const file of projectConfigFiles(env.cwd)) {
      if (await env.reads.exists(file)) {
        found.problems.push({ severity: "info", file, message: "not loaded: the project is not trusted" });
      }
    }
    return found;
  }
  const native = path.join(env.cwd, ".pi", "mcp.json");
  found.piNativeConfigs = (await fileExists(native)) ? [native] : [];
  // Ancestor roots are a user-only setting: the user files above this row decide them.
  const roots = mergeConfigLayers(env.fileLayers).settings.ancestorConfigRoots ?? [];
  const dirs = [...ancestorDirs(env.cwd, roots, env.environment.home), env.cwd];
  for (const dir of dirs) {
    for (const file of projectConfigFiles(dir)) await readFileLayer(file, "project", env, found);
  }
  return found;
}
