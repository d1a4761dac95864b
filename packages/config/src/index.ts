export {
  type AdmissionResult,
  admitProjectServers,
  type PendingProjectServer,
} from "./admit-project-servers.js";
export {
  type PluginContext,
  type PluginManifest,
  PluginManifestSchema,
  readAgentPlugins,
} from "./agent-plugins.js";
export {
  APPROVALS_FILE,
  type ApprovalFile,
  ApprovalFileSchema,
  type ApprovalStore,
  createFileApprovalStore,
  createMemoryApprovalStore,
  type ProjectServerKey,
} from "./approval-store.js";
export { type ConfigLayer, type LayerEntry, parseConfigLayer } from "./config-layer.js";
export {
  AGENT_CONFIG_FILE,
  type ConfigEnvironment,
  defaultConfigEnvironment,
  PROJECT_CONFIG_FILE,
  PROJECT_OVERRIDE_FILE,
  projectConfigFiles,
  userConfigFiles,
} from "./config-sources.js";
export type { ConfiguredServer } from "./configured-server.js";
export { configHash, definitionHash } from "./definition-hash.js";
export { ConfigError, type ConfigErrorCode } from "./errors.js";
export {
  convertRegistration,
  type ExtensionServerRegistration,
  type ExtensionServers,
  extensionServers,
  isRegisteredSource,
  type OverriddenRegistration,
  REGISTERED_SOURCE_PREFIX,
  registrantLabel,
  withExtensionServers,
} from "./extension-servers.js";
export {
  HOST_IDS,
  type HostConfigFile,
  type HostId,
  hostConfigFiles,
  isHostId,
} from "./hosts/host-locations.js";
export { type DetectedHostConfig, readHostConfigs } from "./hosts/load-host-configs.js";
export { interpolate } from "./interpolate.js";
export { INLINE_CONFIG, type LoadConfigOptions, loadConfig, type ResolvedConfig } from "./load-config.js";
export { MASK, maskServerDefinition } from "./mask-server-definition.js";
export { type MergedLayers, mergeConfigLayers } from "./merge-config-layers.js";
export { keepHeadersAtOrigin } from "./origin-headers.js";
export {
  type PrepareConnectionOptions,
  type PreparedConnection,
  prepareConnection,
  resolveOAuthClientSecret,
  SAFE_ENV_KEYS,
} from "./prepare-connection.js";
export { type ConfigProblem, formatProblem } from "./problems.js";
export {
  ADMIT_ALL_PROJECT_SERVERS,
  describeProjectServer,
  type ProjectServerApprovalRequest,
  type ProjectTrust,
} from "./project-trust.js";
export { MAX_CONFIG_BYTES, parseJsoncText, readConfigText, readJsonFile } from "./read-json-file.js";
export {
  DEFAULT_SECRET_TTL_MS,
  RefreshingSecret,
  type RefreshingSecretOptions,
} from "./refreshing-secret.js";
export {
  type RequestHeadersCommand,
  RequestHeadersCommandSchema,
  requestHeadersFetch,
} from "./request-headers-command.js";
export {
  createSecretCommandRunner,
  isSecretCommand,
  runSecretCommand,
  SECRET_COMMAND_MAX_BYTES,
  SECRET_COMMAND_TIMEOUT_MS,
  type SecretCommandRunner,
} from "./secret-command.js";
export { type SecretFetch, type SecretHeader, SecretHeaders } from "./secret-headers.js";
export {
  type OAuthOptions,
  OAuthOptionsSchema,
  type ServerEntry,
  ServerEntrySchema,
} from "./server-entry.js";
export { type SettingKey, type Settings, SettingsSchema, USER_ONLY_SETTINGS } from "./settings.js";
export type { SourceScope } from "./source-scope.js";
