/** The file named with `--mcp-config` (SDK `configPath`): it must exist, and it outranks every other file. */
import path from "node:path";
import { expandHome } from "../files/config-sources.js";
import { nothingRead, readFileLayer, type SourceEnv, type SourceRead } from "./config-source.js";

export async function readExplicitFile(env: SourceEnv): Promise<SourceRead> {
  const found = nothingRead();
  if (!env.configPath) return found;
  const file = path.resolve(env.cwd, expandHome(env.configPath, env.environment.home));
  await readFileLayer(file, "explicit", env, found, true);
  return found;
}
