/** Servers shipped in the Pi packages Pi's settings list: below every user config, other hosts' files included. */
import { defaultGlobalNpmRoot } from "../pi-packages/package-locations.js";
import { readPiPackageServers } from "../pi-packages/pi-package-servers.js";
import { nothingRead, type SourceEnv, type SourceRead, type SourceTrust } from "./config-source.js";

export async function readPiPackageSource(env: SourceEnv, trust: SourceTrust): Promise<SourceRead> {
  const found = nothingRead();
  const { environment } = env;
  found.layers = await readPiPackageServers({
    cwd: env.cwd,
    home: environment.home,
    agentDir: environment.agentDir,
    readProject: trust.projectReadable,
    globalNpmRoot: defaultGlobalNpmRoot(environment.env, environment.platform),
    reads: env.reads,
  });
  found.files = [
    ...new Set(found.layers.flatMap((layer) => layer.entries.map((entry) => entry.source.file))),
  ];
  return found;
}
