/**
 * What is known before any server runs: the merged config and the metadata
 * cache, read once when the extension loads. Reading it spawns nothing,
 * resolves no `${VAR}` or `!command` secret and asks nobody, so a host can
 * take it before its first model request and register what it needs (direct
 * tools, prompt commands) from cached listings alone. The runtime created
 * later for the session reuses the loaded cache instead of reading the file
 * again.
 *
 * Project trust is not known this early (Pi asks for it per session), so
 * project servers appear here only when their exact definition was approved
 * before or the user allows project servers; the session's runtime applies
 * the real trust answer.
 */
import type { MetadataCache, ServerListing } from "@pi-mcp-adapter/catalog";
import {
  type ConfiguredServer,
  definitionHash,
  loadConfig,
  type ProjectTrust,
  type ResolvedConfig,
} from "@pi-mcp-adapter/config";
import { type AdapterEnvironment, processEnvironment, type ToolMetadata } from "@pi-mcp-adapter/core";
import { type AutoDirect, decideAutoDirect } from "../catalog/auto-direct-tools.js";
import { openMetadataCache } from "../catalog/metadata-cache-file.js";
import { sharedServerMetadata } from "../catalog/shared-metadata.js";

export interface StartupSnapshotSource {
  cwd: string;
  /** An extra config file (`--mcp-config`); it outranks every other config file. */
  configPath?: string;
  /** An inline config (SDK `createMcpAdapter({ config })`): no files read. */
  config?: unknown;
  /**
   * Project trust as far as it is known without asking (remembered approvals,
   * no dialog). Default: project servers only with `projectServers: "allow"`.
   */
  trust?: ProjectTrust;
  /** The tool metadata cache file; default `<agent dir>/mcp-cache.json`, `false` for none. */
  metadataCacheFile?: string | false;
  /** The host's environment: its agent dir (config, metadata cache) and home; default this process's. */
  environment?: AdapterEnvironment;
}

export interface SnapshotServer {
  server: ConfiguredServer;
  /** The cached listing, when the cache holds one for this exact definition that has not expired. */
  listing?: ServerListing;
  /** Tools, resources and prompts from `listing`, filtered and named as search and calls see them. */
  metadata?: ToolMetadata[];
}

export interface StartupSnapshot {
  readonly cwd: string;
  readonly configPath?: string;
  readonly config: ResolvedConfig;
  /** The loaded cache (shared with the session's runtime), `undefined` when caching is off. */
  readonly cache: MetadataCache | undefined;
  /** Every enabled admitted server, in config order. */
  readonly servers: SnapshotServer[];
  /** Enabled servers the cache knows nothing about (a first run, or an edited definition). */
  readonly missing: string[];
}

/** Reads config and the metadata cache; never spawns, never resolves a secret, never asks. */
export async function loadStartupSnapshot(source: StartupSnapshotSource): Promise<StartupSnapshot> {
  const environment = source.environment ?? processEnvironment();
  const cache = openMetadataCache(source.metadataCacheFile, environment.agentDir);
  const [config] = await Promise.all([
    loadConfig({
      cwd: source.cwd,
      configPath: source.configPath,
      config: source.config,
      trust: source.trust,
      environment,
    }),
    cache?.load(),
  ]);
  const servers = cachedServers(config, cache);
  return {
    cwd: source.cwd,
    ...(source.configPath !== undefined ? { configPath: source.configPath } : {}),
    config,
    cache,
    servers,
    missing: servers.filter((s) => !s.listing).map((s) => s.server.name),
  };
}

/** The enabled servers of `config` with what `cache` (already loaded) holds for each, as a snapshot has them. */
export function cachedServers(config: ResolvedConfig, cache: MetadataCache | undefined): SnapshotServer[] {
  const serverNames = config.servers.map((server) => server.name);
  return config.servers
    .filter((server) => !server.disabled)
    .map((server): SnapshotServer => {
      const listing = cache?.get(server.name, definitionHash(server));
      if (!listing) return { server };
      // Built when first read: a start-up without direct tools never needs the cached tools' metadata.
      let metadata: ToolMetadata[] | undefined;
      return {
        server,
        listing,
        get metadata() {
          metadata ??= sharedServerMetadata(server.name, listing, {
            toolPrefix: server.toolPrefix ?? config.settings.toolPrefix,
            serverNames,
            includeTools: server.includeTools,
            excludeTools: server.excludeTools,
          });
          return metadata;
        },
      };
    });
}

/**
 * The session's `directTools: "auto"` decision from what the snapshot knows
 * (its cached listings as read at start-up, whatever is listed since), so the
 * host's start-up registration and the session's runtime decide alike;
 * `undefined` when no server follows `"auto"`.
 */
export function snapshotAutoDirect(
  snapshot: Pick<StartupSnapshot, "servers" | "config">,
): AutoDirect | undefined {
  return decideAutoDirect(
    snapshot.servers.map((s) => ({
      definition: s.server,
      // Read only when a server follows "auto": building metadata is the costly part.
      get metadata() {
        return s.metadata;
      },
    })),
    snapshot.config.settings,
  );
}
