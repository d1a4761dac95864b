export type { PendingProjectServer } from "./admit-project-servers.js";
export {
  APPROVALS_FILE,
  type ApprovalStore,
  createFileApprovalStore,
  type ProjectServerKey,
} from "./approval-store.js";
export {
  AGENT_CONFIG_FILE,
  type ConfigEnvironment,
  defaultConfigEnvironment,
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
  extensionServers,
  isRegisteredSource,
  REGISTERED_SOURCE_PREFIX,
  registrantLabel,
  withExtensionServers,
} from "./extension-servers.js";
export { HOST_IDS, type HostId, isHostId } from "./hosts/host-locations.js";
export type { DetectedHostConfig } from "./hosts/load-host-configs.js";
export { type LoadConfigOptions, loadConfig, type ResolvedConfig } from "./load-config.js";
export { maskServerDefinition } from "./mask-server-definition.js";
export {
  type PrepareConnectionOptions,
  type PreparedConnection,
  prepareConnection,
  resolveOAuthClientSecret,
} from "./prepare-connection.js";
export { type ConfigProblem, formatProblem } from "./problems.js";
export {
  ADMIT_ALL_PROJECT_SERVERS,
  describeProjectServer,
  type ProjectServerApprovalRequest,
  type ProjectTrust,
} from "./project-trust.js";
export { readConfigText } from "./read-json-file.js";
export { RefreshingSecret, type RefreshingSecretOptions } from "./refreshing-secret.js";
export { runSecretCommand, type SecretCommandRunner } from "./secret-command.js";
export { type SecretFetch, type SecretHeader, SecretHeaders } from "./secret-headers.js";
export { type OAuthOptions, OAuthOptionsSchema } from "./server-entry.js";
export { type SettingKey, type Settings, SettingsSchema } from "./settings.js";
export type { SourceScope } from "./source-scope.js";
