/**
 * `pi-mcp-adapter init`: finds other hosts' configs and writes their names
 * into `imports` of the agent dir's `mcp-adapter.json` (and, asked to,
 * `hostConfigDiscovery: "on"`). Only files are read and written: no server
 * starts and no `!command` runs. A second run finds everything in place and
 * writes nothing.
 */
import type { HostId } from "../hosts/host-locations.js";
import { adoptHostImports } from "./adopt-hosts.js";
import { type HostConfigInfo, readSetupOverview, type SetupOverviewOptions } from "./setup-overview.js";

export interface InitResult {
  /** The file written (or that would have been). */
  file: string;
  /** Host configs found, with their servers. */
  hosts: HostConfigInfo[];
  /** Hosts newly added to `imports`. */
  added: HostId[];
  discoveryEnabled: boolean;
  /** False when nothing needed writing. */
  changed: boolean;
}

export async function initHostImports(
  options: SetupOverviewOptions & { discovery?: boolean },
): Promise<InitResult> {
  const overview = await readSetupOverview(options);
  const withServers = overview.hosts.filter((h) => h.servers.length > 0);
  const hosts = [...new Set(withServers.map((h) => h.host))];
  const adopted = await adoptHostImports(overview.agentConfigFile, hosts, { discovery: options.discovery });
  return {
    file: adopted.file,
    hosts: withServers,
    added: adopted.added,
    discoveryEnabled: adopted.discoveryEnabled,
    changed: adopted.changed,
  };
}
