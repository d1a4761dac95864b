/**
 * Other hosts' config files (Claude, Cursor, VS Code, Codex, …): read for the
 * hosts named in `imports`, or all of them with `hostConfigDiscovery` "on" or
 * "prompt". Only hosts the user asked for load servers; with "prompt" the
 * others are reported with how to load them.
 */
import { HOST_IDS, type HostId, isHostId } from "../hosts/host-locations.js";
import { readHostConfigs } from "../hosts/load-host-configs.js";
import type { ConfigLayer } from "../layers/config-layer.js";
import type { Settings } from "../layers/settings.js";
import { mergeConfigLayers } from "../merge/merge-config-layers.js";
import type { ConfigProblem } from "../problems.js";
import { nothingRead, type SourceEnv, type SourceRead, type SourceTrust } from "./config-source.js";

export async function readHostImports(env: SourceEnv, trust: SourceTrust): Promise<SourceRead> {
  const found = nothingRead();
  const discovery = mergeConfigLayers(env.fileLayers).settings.hostConfigDiscovery;
  const hosts = requestedHosts(env.fileLayers, discovery, found.problems);
  const hostRead = await readHostConfigs(hosts.all, env.environment, env.cwd, {
    readProjectFiles: trust.projectReadable,
    reads: env.reads,
  });
  found.detectedHostConfigs = hostRead.detected;
  // Problems in host files matter only for hosts the user asked to load: the others' layers are dropped.
  const hostOf = (layer: ConfigLayer) => hostRead.detected.find((d) => d.file === layer.file)?.host;
  found.layers = hostRead.layers.filter((layer) => hosts.active.some((host) => hostOf(layer) === host));
  found.files = found.layers.map((layer) => layer.file);
  // "prompt": say what was found and how to use it, without loading it.
  for (const detected of hostRead.detected) {
    if (hosts.active.includes(detected.host) || detected.servers.length === 0) continue;
    found.problems.push({
      severity: "info",
      file: detected.file,
      message: `${detected.host} config with ${detected.servers.length} server(s) (${detected.servers.join(", ")}) detected, not loaded: set settings.hostConfigDiscovery to "on" or add "${detected.host}" to imports to use it (/mcp-adapter setup or pi-mcp-adapter init does that)`,
    });
  }
  return found;
}

/** Hosts to read (`all`) and to load servers from (`active`). */
function requestedHosts(
  layers: readonly ConfigLayer[],
  discovery: Settings["hostConfigDiscovery"],
  problems: ConfigProblem[],
): { all: HostId[]; active: HostId[] } {
  const imported: HostId[] = [];
  for (const layer of layers) {
    layer.imports.forEach((name, index) => {
      if (isHostId(name)) {
        if (!imported.includes(name)) imported.push(name);
      } else {
        problems.push({
          severity: "error",
          file: layer.file,
          field: `imports.${index}`,
          message: `unknown host "${name}" (expected one of ${HOST_IDS.join(", ")})`,
        });
      }
    });
  }
  if (discovery === "on") return { all: [...HOST_IDS], active: [...HOST_IDS] };
  if (discovery === "prompt") return { all: [...HOST_IDS], active: imported };
  return { all: imported, active: imported };
}
