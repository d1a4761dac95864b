import path from "node:path";
import {
  ADMIT_ALL_PROJECT_SERVERS,
  type ConfiguredServer,
  defaultConfigEnvironment,
  definitionHash,
  type ExtensionServerRegistration,
  loadConfig,
  type ProjectTrust,
  prepareConnection,
  projectConfigFiles,
  type ResolvedConfig,
  userConfigFiles,
} from "@pi-mcp-adapter/config";
import { type AdapterEnvironment, packageVersion, processEnvironment } from "@pi-mcp-adapter/core";
import { type ConnectOptions, connectServer, createNpxResolver } from "@pi-mcp-adapter/transport";
import { AdapterRuntime } from "./adapter-runtime.js";
import type { RuntimeUiOptions } from "./calls/ui-apps.js";
import { directToolSettings } from "./catalog/direct-tools.js";
import { openMetadataCache } from "./catalog/metadata-cache-file.js";
import { clientHandlersFor } from "./client-features/client-handlers.js";
import { SamplingUsage } from "./client-features/sampling-usage.js";
import { SessionRoots } from "./client-features/session-roots.js";
import { type Host, headlessHost } from "./host.js";
import { connectionFetch } from "./oauth/connection-fetch.js";
import { createRuntimeOAuth, type RuntimeOAuthHooks } from "./oauth/runtime-oauth.js";
import { OUTPUT_SHAPES_FILE_NAME, OutputShapes } from "./observability/output-shapes.js";
import { SERVER_LOG_FILE_NAME, ServerLog } from "./observability/server-log.js";
import { sessionObservers } from "./observability/session-observers.js";
import { TASK_JOURNAL_FILE_NAME, TaskJournal } from "./observability/task-records.js";
import { tracedHandlers } from "./observability/trace-sources.js";
import { ConfigStamps } from "./servers/config-stamps.js";
import { withConnectionDefaults } from "./servers/connection-defaults.js";
import type { AwaitingApproval } from "./servers/server-set.js";
import { sharingOptions } from "./servers/sharing-options.js";
import { cachedServers, type StartupSnapshot, snapshotAutoDirect } from "./startup/startup-snapshot.js";
import { unsupportedSettingProblems } from "./startup/unsupported-settings.js";

export interface RuntimeSource {
  cwd: string;
  /** An extra config file (`--mcp-config`); it outranks every other config file. */
  configPath?: string;
  /** An inline config (SDK `createMcpAdapter({ config })`): an isolated snapshot, no files read. */
  config?: unknown;
  /**
   * Project trust and approvals, filled by the Pi extension. Left out, the
   * caller is the user's explicit choice of project (the CLI), and project
   * servers are admitted.
   */
  trust?: ProjectTrust;
  /** The tool metadata cache file; default `<agent dir>/mcp-cache.json`, `false` for none. */
  metadataCacheFile?: string | false;
  /** Where servers' log messages go; default `<agent dir>/mcp-adapter.log`, `false` for nowhere. */
  serverLogFile?: string | false;
  /** The journal of running MCP tasks (user-only); default `<agent dir>/mcp-tasks.json`, `false` for none. */
  taskJournalFile?: string | false;
  /** Where npx resolutions are remembered (24 h); default `<agent dir>/mcp-npx-cache.json`, `false` for memory only. */
  npxCacheFile?: string | false;
  /** Where OAuth warnings and logins started by `autoAuth` are reported; default: warnings to `host.notify`. */
  oauth?: RuntimeOAuthHooks;
  /** Dialogs, notices, status sink and broker bus; default a headless host (no UI). */
  host?: Host;
  /** The client identity sent to servers; default `pi-mcp-adapter` at this package's version. */
  client?: { name: string; version: string };
  /**
   * The startup snapshot taken when the host loaded: its metadata cache,
   * already read, is reused (unless `metadataCacheFile` names another file).
   * Config is read again, since trust is known only now.
   */
  snapshot?: StartupSnapshot;
  /** MCP Apps: viewer (`browser` / `none`; default from `MCP_UI_VIEWER`), tool consent, how windows open. */
  ui?: RuntimeUiOptions;
  /**
   * Servers other extensions registered for this session, read at every
   * (re)load: they rank below every config file. After they change, `reload()`
   * applies them live.
   */
  registrations?: () => readonly ExtensionServerRegistration[];
  /** The host's environment: its agent dir (config, caches, log, daemon) and home; default this process's. */
  environment?: AdapterEnvironment;
}

/** File name of the npx resolution cache in Pi's agent directory. */
export const NPX_CACHE_FILE_NAME = "mcp-npx-cache.json";

/** Reads and merges config for a runtime (exposed for status screens and the metadata cache's `configHash`). */
export async function loadRuntimeConfig(source: RuntimeSource): Promise<ResolvedConfig> {
  return loadConfig({
    cwd: source.cwd,
    configPath: source.configPath,
    config: source.config,
    trust: source.trust ?? ADMIT_ALL_PROJECT_SERVERS,
    registrations: source.registrations?.() ?? [],
    environment: source.environment,
  });
}

/** The config files a session read, and those it would have read had they existed (creating one is a change too). */
function configFilesOf(config: ResolvedConfig, source: RuntimeSource): string[] {
  if (source.config !== undefined) return [];
  return [
    ...config.sources,
    ...userConfigFiles(defaultConfigEnvironment(source.environment)),
    ...projectConfigFiles(source.cwd),
  ];
}

/** Loads config and builds a runtime; nothing connects until first use. */
export async function createRuntime(given: RuntimeSource): Promise<AdapterRuntime> {
  // One environment for everything below, config read again on reload included.
  const source = { ...given, environment: given.environment ?? processEnvironment() };
  const { agentDir, home, now } = source.environment;
  const config = await loadRuntimeConfig(source);
  const npxCacheFile = source.npxCacheFile ?? path.join(agentDir, NPX_CACHE_FILE_NAME);
  const host = source.host ?? headlessHost();
  const roots = new SessionRoots(
    source.cwd,
    (config.settings.ancestorConfigRoots ?? []).map((root) => expandHome(root, home)),
  );
  // Trace and stats observe every call of the session (settings.trace, settings.captureStats).
  const observers = sessionObservers(config.settings, source.cwd, (message) =>
    host.notify(message, "warning"),
  );
  const samplingUsage = new SamplingUsage((server, usage) =>
    observers.stats?.recordSampling(server, { input: usage?.inputTokens, output: usage?.outputTokens }),
  );
  const connectOptions: ConnectOptions = {
    cwd: source.cwd,
    // Server→client requests the host can answer; capabilities follow from them.
    handlers: clientHandlersFor(host, { ...config.settings, roots, rateLimit: { now } }, samplingUsage),
    client: source.client ?? { name: "pi-mcp-adapter", version: PACKAGE_VERSION },
    resolveCommand: createNpxResolver(
      npxCacheFile === false
        ? {}
        : { cacheFile: npxCacheFile, onProblem: (message) => host.notify(message, "warning") },
    ),
    // Servers with `shared` (or under `shareServers`) reach the per-user daemon in the agent dir.
    sharing: sharingOptions(agentDir, config.settings.idleTimeout),
  };
  const { settings } = config;
  if (observers.trace) connectOptions.handlers = tracedHandlers(connectOptions.handlers, observers.trace);
  // OAuth warnings reach the host's notices unless the caller routes them itself.
  let current = config;
  const oauth = await createRuntimeOAuth(
    config,
    source.oauth ?? { warn: (message) => host.notify(`OAuth: ${message}`, "warning") },
    () => current.servers,
  );
  const servers = config.servers;
  const reuse = source.snapshot && source.metadataCacheFile === undefined;
  const cache = reuse ? source.snapshot?.cache : openMetadataCache(source.metadataCacheFile, agentDir);
  // Loaded up front so status can say `cached` for servers listed in an earlier session.
  if (!reuse) await cache?.load();
  const hashesOf = (list: ConfiguredServer[]) => new Map(list.map((s) => [s.name, definitionHash(s)]));
  let hashes = hashesOf(servers);
  // In script mode, result shapes persist next to the metadata cache (and, like it, not with `metadataCacheFile: false`).
  const cacheDir =
    typeof source.metadataCacheFile === "string" ? path.dirname(source.metadataCacheFile) : agentDir;
  const shapesFile =
    settings.scriptMode === true && source.metadataCacheFile !== false
      ? path.join(cacheDir, OUTPUT_SHAPES_FILE_NAME)
      : undefined;
  const backoff = settings.failureBackoffMs;
  // The host's clock for every policy of the session (idle, back-off, pin notices, tasks, watches, late listings).
  const lifecycle = {
    now,
    idleTimeoutMin: settings.idleTimeout,
    ...(backoff !== undefined ? { failureBackoff: { initialMs: backoff, maxMs: backoff * 2 } } : {}),
    hasCachedMetadata: (name: string) => {
      const hash = hashes.get(name);
      return hash !== undefined && cache?.get(name, hash) !== undefined;
    },
  };
  const logFile = source.serverLogFile ?? path.join(agentDir, SERVER_LOG_FILE_NAME);
  const journalFile = source.taskJournalFile ?? path.join(agentDir, TASK_JOURNAL_FILE_NAME);
  return new AdapterRuntime({
    taskJournal: new TaskJournal(journalFile === false ? undefined : journalFile, now),
    ...observers,
    ...(logFile === false ? {} : { serverLog: new ServerLog(logFile) }),
    outputShapes: new OutputShapes(shapesFile),
    servers,
    lifecycle,
    problems: [...config.problems, ...oauth.problems, ...unsupportedSettingProblems(config)],
    awaitingApproval: awaitingApprovalOf(config),
    configStamps: await ConfigStamps.take(configFilesOf(config, source), config.fileStamps),
    // OAuth keeps the session's store and logins; servers and their problems are read afresh.
    reloadConfig: async () => {
      const next = await loadRuntimeConfig(source);
      current = next;
      const nextServers = next.servers;
      hashes = hashesOf(nextServers);
      return {
        servers: nextServers,
        problems: [...next.problems, ...oauth.problems, ...unsupportedSettingProblems(next)],
        awaitingApproval: awaitingApprovalOf(next),
        direct: directToolSettings(next.settings),
        configStamps: await ConfigStamps.take(configFilesOf(next, source), next.fileStamps),
      };
    },
    oauth: oauth.wiring,
    direct: directToolSettings(settings),
    host,
    roots,
    catalog: {
      cache,
      cacheLoaded: cache !== undefined,
      toolPrefix: config.settings.toolPrefix,
      onWarning: (message) => host.notify(message, "warning"),
      ...(settings.keepAliveRelistMinutes !== undefined
        ? { keepAliveRelist: { intervalMs: settings.keepAliveRelistMinutes * 60_000 } }
        : {}),
      // `directTools: "auto"` is decided once, from what start-up knew: the host's snapshot, else the cache now.
      autoDirect: snapshotAutoDirect(source.snapshot ?? { config, servers: cachedServers(config, cache) }),
    },
    calls: {
      approveTools: config.settings.approveTools,
      outputGuard: config.settings.outputGuard,
      toonEncode: config.settings.toonEncode,
      elicitation: config.settings.elicitation,
      pinTools: config.settings.pinTools,
      spillMaxAgeDays: config.settings.spillMaxAgeDays,
    },
    samplingUsage,
    ui: { hostInfo: connectOptions.client, ...source.ui },
    // The one connect of a session: `${VAR}` and `!command` secrets are resolved here, at connect
    // time only, the global timeouts and task settings are inherited, and OAuth servers get their
    // provider (and a DPoP-signing fetch where configured).
    // The signal ends a connect stuck in initialize when the server is reconnected or shut down.
    connect: async (definition, signal) => {
      const prepared = await prepareConnection(definition, {
        warn: (m) => host.notify(m, "warning"),
        readStoredBearerToken: oauth.wiring?.readStoredBearerToken,
      });
      const oauthAuth = (await oauth.wiring?.connectionAuth(definition)) ?? {};
      const fetch = connectionFetch(prepared, { ...oauthAuth, usesOAuth: !!oauthAuth.authProvider });
      const auth = {
        ...(oauthAuth.authProvider ? { authProvider: () => oauthAuth.authProvider } : {}),
        ...(fetch ? { fetch } : {}),
      };
      return connectServer(
        withConnectionDefaults(prepared.definition, current.settings),
        { ...connectOptions, baseEnv: prepared.baseEnv, ...auth },
        signal,
      );
    },
  });
}

function expandHome(value: string, home: string): string {
  if (value === "~") return home;
  return value.startsWith("~/") ? path.join(home, value.slice(2)) : value;
}

declare const __PACKAGE_VERSION__: string | undefined;

/** This package's version, reported to servers as the client version (a constant once built: see core's `packageVersion`). */
export const PACKAGE_VERSION: string = packageVersion(
  "@pi-mcp-adapter/runtime",
  typeof __PACKAGE_VERSION__ === "string" ? __PACKAGE_VERSION__ : undefined,
  import.meta.url,
);

/** Project servers the config left out until approved, for search to name. */
function awaitingApprovalOf(config: ResolvedConfig): AwaitingApproval[] {
  return config.pendingProjectServers.map((p) => ({ name: p.name, file: p.source.file }));
}
