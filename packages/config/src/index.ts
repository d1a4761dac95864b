export { ConfigError, type ConfigErrorCode } from "./errors.js";
export {
  AGENT_CONFIG_FILE,
  type ConfigEnvironment,
  defaultConfigEnvironment,
  PROJECT_CONFIG_FILE,
  PROJECT_OVERRIDE_FILE,
  projectConfigFiles,
  userConfigFiles,
} from "./files/config-sources.js";
export { MAX_CONFIG_BYTES, parseJsoncText, readConfigText, readJsonFile } from "./files/read-json-file.js";
export {
  HOST_IDS,
  type HostConfigFile,
  type HostId,
  hostConfigFiles,
  isHostId,
} from "./hosts/host-locations.js";
export { type DetectedHostConfig, readHostConfigs } from "./hosts/load-host-configs.js";
export { type ConfigLayer, type LayerEntry, parseConfigLayer } from "./layers/config-layer.js";
export type { ConfiguredServer } from "./layers/configured-server.js";
export {
  type OAuthOptions,
  OAuthOptionsSchema,
  type ServerEntry,
  ServerEntrySchema,
} from "./layers/server-entry.js";
export { type SettingKey, type Settings, SettingsSchema, USER_ONLY_SETTINGS } from "./layers/settings.js";
export type { SourceScope } from "./layers/source-scope.js";
export { type LoadConfigOptions, loadConfig } from "./load-config.js";
export { configHash, definitionHash } from "./merge/definition-hash.js";
export { type MergedLayers, mergeConfigLayers } from "./merge/merge-config-layers.js";
export { type ConfigProblem, formatProblem } from "./problems.js";
export type { ResolvedConfig } from "./resolved-config.js";
export { interpolate } from "./secrets/interpolate.js";
export { MASK, maskServerDefinition } from "./secrets/mask-server-definition.js";
export { keepHeadersAtOrigin } from "./secrets/origin-headers.js";
export {
  type PrepareConnectionOptions,
  type PreparedConnection,
  prepareConnection,
  resolveOAuthClientSecret,
  SAFE_ENV_KEYS,
} from "./secrets/prepare-connection.js";
export {
  DEFAULT_SECRET_TTL_MS,
  RefreshingSecret,
  type RefreshingSecretOptions,
} from "./secrets/refreshing-secret.js";
export {
  type RequestHeadersCommand,
  RequestHeadersCommandSchema,
  requestHeadersFetch,
} from "./secrets/request-headers-command.js";
export {
  createSecretCommandRunner,
  isSecretCommand,
  runSecretCommand,
  SECRET_COMMAND_MAX_BYTES,
  SECRET_COMMAND_TIMEOUT_MS,
  type SecretCommandRunner,
} from "./secrets/secret-command.js";
export { type SecretFetch, type SecretHeader, SecretHeaders } from "./secrets/secret-headers.js";
export {
  type PluginContext,
  type PluginManifest,
  PluginManifestSchema,
  readAgentPlugins,
} from "./sources/agent-plugins.js";
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
} from "./sources/extension-servers.js";
export { INLINE_CONFIG } from "./sources/inline-config.js";
export {
  type AdmissionResult,
  admitProjectServers,
  type PendingProjectServer,
} from "./trust/admit-project-servers.js";
export {
  APPROVALS_FILE,
  type ApprovalFile,
  ApprovalFileSchema,
  type ApprovalStore,
  createFileApprovalStore,
  createMemoryApprovalStore,
  type ProjectServerKey,
} from "./trust/approval-store.js";
export {
  ADMIT_ALL_PROJECT_SERVERS,
  describeProjectServer,
  type ProjectServerApprovalRequest,
  type ProjectTrust,
} from "./trust/project-trust.js";
