/**
 * Turns config files into a `ResolvedConfig`: reads the six sources (plus
 * ancestors, host imports, agent plugins and an explicit file), merges them,
 * admits project servers through trust and approval, and converts the result
 * to `ConfiguredServer`s. Never spawns anything and never resolves secrets.
 */

import path from "node:path";
import type { Provenance } from "@pi-mcp-adapter/core";
import {
  ancestorDirs,
  type ConfigEnvironment,
  defaultConfigEnvironment,
  expandHome,
  projectConfigFiles,
  userConfigFiles,
} from "./files/config-sources.js";
import { fileExists } from "./files/file-exists.js";
import { readJsonFile } from "./files/read-json-file.js";
import { HOST_IDS, type HostId, isHostId } from "./hosts/host-locations.js";
import { type DetectedHostConfig, readHostConfigs } from "./hosts/load-host-configs.js";
import type { ConfigLayer } from "./layers/config-layer.js";
import { parseConfigLayer } from "./layers/config-layer.js";
import type { ConfiguredServer } from "./layers/configured-server.js";
import type { SettingKey, Settings } from "./layers/settings.js";
import { isProjectScope, type SourceScope } from "./layers/source-scope.js";
import { configHash } from "./merge/definition-hash.js";
import { mergeConfigLayers } from "./merge/merge-config-layers.js";
import { toServerDefinition } from "./merge/to-server-definition.js";
import { defaultGlobalNpmRoot } from "./pi-packages/package-locations.js";
import { readPiPackageServers } from "./pi-packages/pi-package-servers.js";
import type { ConfigProblem } from "./problems.js";
import { readAgentPlugins } from "./sources/agent-plugins.js";
import { admitProjectServers, type PendingProjectServer } from "./trust/admit-project-servers.js";
import { ADMIT_ALL_PROJECT_SERVERS, type ProjectTrust } from "./trust/project-trust.js";

export interface LoadConfigOptions {
  /** Project directory. */
  cwd: string;
  /** An extra config file (`--mcp-config`, SDK `configPath`); it outranks every other file. */
  configPath?: string;
  /**
   * An inline config (SDK `createMcpAdapter({ config })`): a complete,
   * isolated snapshot. When set, no file, import or plugin is read.
   */
  config?: unknown;
  /** Home, Pi agent dir, platform and environment; real values by default. */
  environment?: Partial<ConfigEnvironment>;
  /**
   * How project servers are admitted. Default: the host has no trust answer,
   * nothing is approved and nobody can be asked, so project servers load only
   * with user-global `settings.projectServers: "allow"`.
   */
  trust?: ProjectTrust | typeof ADMIT_ALL_PROJECT_SERVERS;
}

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

/** The `file` named in provenance and problems of an inline config. */
export const INLINE_CONFIG = "<inline config>";

export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const environment = defaultConfigEnvironment(options.environment);
  const problems: ConfigProblem[] = [];
  const sources: string[] = [];
  const trust = options.trust ?? { trusted: undefined };
  const projectReadable = trust === ADMIT_ALL_PROJECT_SERVERS || trust.trusted !== false;

  const readLayer = async (
    file: string,
    scope: SourceScope,
    required = false,
  ): Promise<ConfigLayer | undefined> => {
    const read = await readJsonFile(file);
    if (read.kind === "missing") {
      if (required) problems.push({ severity: "error", file, message: "config file not found" });
      return undefined;
    }
    if (read.kind === "error") {
      problems.push(read.problem);
      return undefined;
    }
    sources.push(file);
    return parseConfigLayer(read.value, file, scope);
  };

  let fileLayers: ConfigLayer[] = [];
  let importLayers: ConfigLayer[] = [];
  let pluginLayers: ConfigLayer[] = [];
  let packageLayers: ConfigLayer[] = [];
  let detectedHostConfigs: DetectedHostConfig[] = [];
  const piNativeConfigs: string[] = [];

  if (options.config !== undefined) {
    let snapshot: unknown;
    try {
      snapshot = structuredClone(options.config);
    } catch {
      snapshot = undefined;
      problems.push({
        severity: "error",
        file: INLINE_CONFIG,
        message: "inline config must be plain JSON data",
      });
    }
    fileLayers = snapshot === undefined ? [] : [parseConfigLayer(snapshot, INLINE_CONFIG, "inline")];
  } else {
    const native = [path.join(environment.agentDir, "mcp.json")];
    if (projectReadable) native.push(path.join(options.cwd, ".pi", "mcp.json"));
    for (const file of native) if (await fileExists(file)) piNativeConfigs.push(file);
    const userLayers = await readLayers(userConfigFiles(environment), "user", readLayer);
    const userSettings = mergeConfigLayers(userLayers).settings;
    const projectLayers: ConfigLayer[] = [];
    if (projectReadable) {
      const dirs = [
        ...ancestorDirs(options.cwd, userSettings.ancestorConfigRoots ?? [], environment.home),
        options.cwd,
      ];
      for (const dir of dirs)
        projectLayers.push(...(await readLayers(projectConfigFiles(dir), "project", readLayer)));
    } else {
      for (const file of projectConfigFiles(options.cwd)) {
        if (await fileExists(file)) {
          problems.push({ severity: "info", file, message: "not loaded: the project is not trusted" });
        }
      }
    }
    const explicit = options.configPath
      ? await readLayer(
          path.resolve(options.cwd, expandHome(options.configPath, environment.home)),
          "explicit",
          true,
        )
      : undefined;
    fileLayers = [...userLayers, ...projectLayers, ...(explicit ? [explicit] : [])];

    const settingsSoFar = mergeConfigLayers(fileLayers);
    const hosts = requestedHosts(fileLayers, settingsSoFar.settings.hostConfigDiscovery, problems);
    const hostRead = await readHostConfigs(hosts.all, environment, options.cwd, {
      readProjectFiles: projectReadable,
    });
    detectedHostConfigs = hostRead.detected;
    importLayers = hostRead.layers.filter((layer) =>
      hosts.active.some((h) => hostOfLayer(hostRead.detected, layer) === h),
    );
    // Problems in host files matter only for hosts the user asked to load.
    for (const layer of hostRead.layers) if (!importLayers.includes(layer)) layer.problems = [];
    // "prompt": say what was found and how to use it, without loading it.
    for (const found of hostRead.detected) {
      if (hosts.active.includes(found.host) || found.servers.length === 0) continue;
      problems.push({
        severity: "info",
        file: found.file,
        message: `${found.host} config with ${found.servers.length} server(s) (${found.servers.join(", ")}) detected, not loaded: set settings.hostConfigDiscovery to "on" or add "${found.host}" to imports to use it (/mcp-adapter setup or pi-mcp-adapter init does that)`,
      });
    }

    const pluginPaths = (settingsSoFar.settings.agentPluginPaths ?? []).filter((dir) => {
      const root = path.resolve(options.cwd, expandHome(dir, environment.home));
      const inProject = !path.relative(options.cwd, root).startsWith("..");
      if (projectReadable || !inProject) return true;
      problems.push({
        severity: "info",
        file: root,
        message: "plugin not loaded: the project is not trusted",
      });
      return false;
    });
    const declaredIn = settingsSoFar.settingSources.agentPluginPaths?.file;
    const declaringScope = fileLayers.find((layer) => layer.file === declaredIn)?.scope ?? "user";
    pluginLayers = await readAgentPlugins(pluginPaths, {
      cwd: options.cwd,
      home: environment.home,
      agentDir: environment.agentDir,
      scope: declaringScope,
    });
    packageLayers = await readPiPackageServers({
      cwd: options.cwd,
      home: environment.home,
      agentDir: environment.agentDir,
      readProject: projectReadable,
      globalNpmRoot: defaultGlobalNpmRoot(environment.env, environment.platform),
    });
  }

  // Servers shipped in Pi packages rank below every user config, other hosts' files included.
  const layers = [...packageLayers, ...importLayers, ...pluginLayers, ...fileLayers];
  for (const layer of layers) problems.push(...layer.problems);
  const packageFiles = new Set(packageLayers.flatMap((l) => l.entries.map((e) => e.source.file)));
  sources.unshift(...packageFiles, ...importLayers.map((layer) => layer.file));
  const merged = mergeConfigLayers(layers);
  problems.push(...merged.problems);

  const converted: ConfiguredServer[] = [];
  for (const entry of merged.entries) {
    const result = toServerDefinition(entry);
    problems.push(...result.problems);
    if (result.server) converted.push(result.server);
  }

  const admission = await admitProjectServers(converted, {
    project: options.cwd,
    trust,
    settings: merged.settings,
  });
  problems.push(...admission.problems);
  const { servers, pendingProjectServers } = admission;
  servers.push(...fallbackDefinitions(layers, pendingProjectServers, problems));

  return {
    servers,
    settings: merged.settings,
    settingSources: merged.settingSources,
    settingsExtra: merged.settingsExtra,
    sources,
    problems,
    pendingProjectServers,
    detectedHostConfigs,
    piNativeConfigs,
    projectFilesRead: options.config === undefined && projectReadable,
    configHash: configHash(servers),
  };
}

/**
 * For project servers left pending, the definition the user's own files give
 * (if any) stays in use: project contributions to those names are set aside.
 */
function fallbackDefinitions(
  layers: readonly ConfigLayer[],
  pending: readonly PendingProjectServer[],
  problems: ConfigProblem[],
): ConfiguredServer[] {
  if (pending.length === 0) return [];
  const names = new Set(pending.map((p) => p.name));
  const withoutProject = layers.map((layer) =>
    isProjectScope(layer.scope)
      ? { ...layer, entries: layer.entries.filter((e) => !names.has(e.name)), disabledNames: [] }
      : layer,
  );
  const fallback: ConfiguredServer[] = [];
  for (const entry of mergeConfigLayers(withoutProject).entries) {
    if (!names.has(entry.name) || isProjectScope(entry.scope)) continue;
    const { server } = toServerDefinition(entry);
    if (!server) continue;
    fallback.push(server);
    problems.push({
      severity: "info",
      file: server.source.file,
      field: server.source.key,
      message: `using this definition of "${server.name}" until the project's version is approved`,
    });
  }
  return fallback;
}

async function readLayers(
  files: string[],
  scope: SourceScope,
  readLayer: (file: string, scope: SourceScope) => Promise<ConfigLayer | undefined>,
): Promise<ConfigLayer[]> {
  const layers: ConfigLayer[] = [];
  for (const file of files) {
    const layer = await readLayer(file, scope);
    if (layer) layers.push(layer);
  }
  return layers;
}

/** Hosts to read (`all`) and to load servers from (`active`). */
function requestedHosts(
  layers: ConfigLayer[],
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

function hostOfLayer(detected: DetectedHostConfig[], layer: ConfigLayer): HostId | undefined {
  return detected.find((d) => d.file === layer.file)?.host;
}
