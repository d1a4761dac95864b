/**
 * Adopting other hosts' configs: their names go into `imports` of one of the
 * adapter's own files (the host's file is never written), and with
 * `discovery`, `settings.hostConfigDiscovery` becomes "on". Running it again
 * with the same hosts changes nothing.
 */

import { ConfigError } from "../errors.js";
import type { HostId } from "../hosts/host-locations.js";
import { editConfigFile, objectAt } from "./edit-config-file.js";

export interface AdoptHostsResult {
  file: string;
  /** Hosts newly written into `imports`. */
  added: HostId[];
  /** True when `hostConfigDiscovery` was switched to "on" by this call. */
  discoveryEnabled: boolean;
  /** False when the file already said all of it (nothing was written). */
  changed: boolean;
}

export async function adoptHostImports(
  file: string,
  hosts: readonly HostId[],
  options: { discovery?: boolean } = {},
): Promise<AdoptHostsResult> {
  const result: AdoptHostsResult = { file, added: [], discoveryEnabled: false, changed: false };
  result.changed = await editConfigFile(file, (document) => {
    const current = document.imports ?? [];
    if (!Array.isArray(current) || !current.every((name) => typeof name === "string")) {
      throw new ConfigError("write_failed", `Not changing ${file}: imports is not a list of host names`);
    }
    result.added = hosts.filter((host, i) => !current.includes(host) && hosts.indexOf(host) === i);
    if (result.added.length) document.imports = [...current, ...result.added];
    if (options.discovery) {
      const settings = objectAt(document, "settings", file);
      if (settings.hostConfigDiscovery !== "on") {
        settings.hostConfigDiscovery = "on";
        result.discoveryEnabled = true;
      }
      if (Object.keys(settings).length === 0) delete document.settings;
    }
    return result.added.length > 0 || result.discoveryEnabled;
  });
  return result;
}
