/**
 * Agent Plugins listed in `settings.agentPluginPaths`. A plugin inside an
 * untrusted project is reported, not read. Plugins take the scope of the file
 * that listed them (a project file's plugins are project servers).
 */
import path from "node:path";
import { expandHome } from "../files/config-sources.js";
import { mergeConfigLayers } from "../merge/merge-config-layers.js";
import { readAgentPlugins } from "./agent-plugins.js";
import { nothingRead, type SourceEnv, type SourceRead, type SourceTrust } from "./config-source.js";

export async function readPluginPaths(env: SourceEnv, trust: SourceTrust): Promise<SourceRead> {
  const found = nothingRead();
  const { cwd, environment } = env;
  const merged = mergeConfigLayers(env.fileLayers);
  const dirs = (merged.settings.agentPluginPaths ?? []).filter((dir) => {
    const root = path.resolve(cwd, expandHome(dir, environment.home));
    const inProject = !path.relative(cwd, root).startsWith("..");
    if (trust.projectReadable || !inProject) return true;
    found.problems.push({
      severity: "info",
      file: root,
      message: "plugin not loaded: the project is not trusted",
    });
    return false;
  });
  const declaredIn = merged.settingSources.agentPluginPaths?.file;
  const scope = env.fileLayers.find((layer) => layer.file === declaredIn)?.scope ?? "user";
  found.layers = await readAgentPlugins(dirs, {
    cwd,
    home: environment.home,
    agentDir: environment.agentDir,
    scope,
  });
  return found;
}
