/**
 * Turns config sources into a `ResolvedConfig`: reads every source of the
 * table (`sources/source-table.ts`), then merges the layers, converts the
 * merged entries to `ConfiguredServer`s and admits project servers through
 * trust and approval. Never spawns anything and never resolves secrets.
 * A config file whose bytes validated cleanly before is not validated again
 * (`files/validated-files.ts`): an unchanged setup loads without zod.
 */
import path from "node:path";
import { type ConfigEnvironment, defaultConfigEnvironment } from "./files/config-sources.js";
import { createStampedReads } from "./files/file-stamps.js";
import { openValidatedFiles, VALIDATED_CONFIG_FILE } from "./files/validated-files.js";
import type { ConfigLayer } from "./layers/config-layer.js";
import type { ConfiguredServer } from "./layers/configured-server.js";
import { loadLayerCheck } from "./layers/layer-check-loader.js";
import { isProjectScope } from "./layers/source-scope.js";
import { configHash } from "./merge/definition-hash.js";
import { type MergedEntry, mergeConfigLayers } from "./merge/merge-config-layers.js";
import { toServerDefinition } from "./merge/to-server-definition.js";
import type { ConfigProblem } from "./problems.js";
import type { ResolvedConfig } from "./resolved-config.js";
import type { ExtensionServerRegistration } from "./sources/extension-servers.js";
import { withExtensionServers } from "./sources/extension-servers.js";
import { createLayerReader } from "./sources/layer-reader.js";
import { readSources } from "./sources/read-sources.js";
import { CONFIG_SOURCES, INLINE_SOURCES } from "./sources/source-table.js";
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
  /** Servers other extensions registered for this session: they rank below every config file. */
  registrations?: readonly ExtensionServerRegistration[];
  /**
   * Where the identities of config files that validated cleanly are kept, so an unchanged file is not
   * validated again (no value of a file is kept, only its path, size, mtime and SHA-256). Default
   * `<agent dir>/mcp-config-validated.json`, beside the metadata cache; `false`: validate every file.
   */
  validatedFiles?: string | false;
}

export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const trust = options.trust ?? { trusted: undefined };
  const projectReadable = trust === ADMIT_ALL_PROJECT_SERVERS || trust.trusted !== false;
  const reads = createStampedReads();
  const environment = defaultConfigEnvironment(options.environment);
  const storeFile = options.validatedFiles ?? path.join(environment.agentDir, VALIDATED_CONFIG_FILE);
  const validated =
    options.config === undefined && storeFile !== false ? await openValidatedFiles(storeFile) : undefined;
  const read = await readSources(
    options.config === undefined ? CONFIG_SOURCES : INLINE_SOURCES,
    {
      cwd: options.cwd,
      environment,
      configPath: options.configPath,
      inline: options.config === undefined ? undefined : { config: options.config },
      registrations: options.registrations ?? [],
      reads,
      layers: createLayerReader(validated),
    },
    { projectReadable },
  );
  await validated?.save();
  const layers = read.reads.flatMap((source) => source.layers);
  const problems = [...read.problems, ...layers.flatMap((layer) => layer.problems)];

  const merged = mergeConfigLayers(layers);
  problems.push(...merged.problems);
  const admission = await admitProjectServers(convert(merged.entries, problems), {
    project: options.cwd,
    trust,
    settings: merged.settings,
  });
  problems.push(...admission.problems);
  const { servers, pendingProjectServers } = admission;
  servers.push(...fallbackDefinitions(layers, pendingProjectServers, problems));

  const resolved: ResolvedConfig = {
    servers,
    settings: merged.settings,
    settingSources: merged.settingSources,
    settingsExtra: merged.settingsExtra,
    sources: read.reads.flatMap((source) => source.files),
    fileStamps: [...reads.stamps],
    problems,
    pendingProjectServers,
    detectedHostConfigs: read.reads.flatMap((source) => source.detectedHostConfigs ?? []),
    piNativeConfigs: read.reads.flatMap((source) => source.piNativeConfigs ?? []),
    projectFilesRead: options.config === undefined && projectReadable,
    configHash: configHash(servers),
  };
  const registrations = read.reads.flatMap((source) => source.registrations ?? []);
  // Registrations are checked as entries are: zod's check, loaded here so the synchronous check finds it.
  if (registrations.length > 0) await loadLayerCheck();
  return withExtensionServers(resolved, registrations);
}

/** Merged entries that can run, as servers; the others become problems. */
function convert(entries: readonly MergedEntry[], problems: ConfigProblem[]): ConfiguredServer[] {
  const converted: ConfiguredServer[] = [];
  for (const entry of entries) {
    const result = toServerDefinition(entry);
    problems.push(...result.problems);
    if (result.server) converted.push(result.server);
  }
  return converted;
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
