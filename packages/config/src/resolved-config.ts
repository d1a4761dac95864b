/** What `loadConfig` returns: the admitted servers, the merged settings, and what was found on the way. */
import type { Provenance } from "@pi-mcp-adapter/core";
import type { ConfigFileStamp } from "./files/file-stamps.js";
import type { DetectedHostConfig } from "./hosts/load-host-configs.js";
import type { ConfiguredServer } from "./layers/configured-server.js";
import type { SettingKey, Settings } from "./layers/settings.js";
import type { ConfigProblem } from "./problems.js";
import type { PendingProjectServer } from "./trust/admit-project-servers.js";

export interface ResolvedConfig {
  /** Admitted servers, enabled and disabled alike; check `disabled`. */
  servers: ConfiguredServer[];
  settings: Settings;
  /** Which file and key set each setting. */
  settingSources: Partial<Record<SettingKey, Provenance>>;
  /** Settings keys this version does not know, kept verbatim (each was reported as a warning). */
  settingsExtra: Record<string, unknown>;
  /** Files that were read, lowest precedence first. */
  sources: string[];
  /**
   * Every config file read or looked for, with its size and modification
   * time as it was read (or `missing`), so a host can tell later whether one
   * changed without reading it again. Empty for an inline config.
   */
  fileStamps: ConfigFileStamp[];
  problems: ConfigProblem[];
  /** Project servers left out because they are not approved. */
  pendingProjectServers: PendingProjectServer[];
  /** Host configs found (with `hostConfigDiscovery` "on" or "prompt", or `imports`). */
  detectedHostConfigs: DetectedHostConfig[];
  /**
   * Pi's own MCP files (`<agent dir>/mcp.json`, `.pi/mcp.json`) that exist.
   * They belong to Pi 1.x's built-in MCP and are never read; setup may offer to import them.
   */
  piNativeConfigs: string[];
  /** False when the host said the project is untrusted and project files were skipped. */
  projectFilesRead: boolean;
  /** SHA-256 of the admitted definitions (secrets unresolved), for the metadata cache. */
  configHash: string;
}
