/**
 * The user's own config files (`~/.config/mcp/mcp.json`, `~/.agents/…`, the
 * adapter's file in Pi's agent dir), lowest precedence first. Pi's own
 * `<agent dir>/mcp.json` is noted, never read.
 */
import path from "node:path";
import { userConfigFiles } from "../files/config-sources.js";
import { fileExists } from "../files/file-exists.js";
import { nothingRead, readFileLayer, type SourceEnv, type SourceRead } from "./config-source.js";

export async function readUserFiles(env: SourceEnv): Promise<SourceRead> {
  const found = nothingRead();
  const native = path.join(env.environment.agentDir, "mcp.json");
  found.piNativeConfigs = (await fileExists(native)) ? [native] : [];
  for (const file of userConfigFiles(env.environment)) await readFileLayer(file, "user", env, found);
  return found;
}
