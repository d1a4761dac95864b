/**
 * `@pi-mcp-adapter/config`: reads, merges and admits config. Nothing here
 * loads zod until a file must be validated (one that changed since it last
 * validated cleanly); the schemas themselves are `./schemas`.
 */
export { ConfigError, type ConfigErrorCode } from "./errors.js";
export {
  AGENT_CONFIG_FILE,
  type ConfigEnvironment,
  defaultConfigEnvironment,
  PROJECT_OVERRIDE_FILE,
  projectConfigFiles,
  userConfigFiles,
} from "./files/config-sources.js";
export { readConfigText } from "./files/read-json-file.js";
export { VALIDATED_CONFIG_FILE } from "./files/validated-files.js";
export { HOST_IDS, type HostId, isHostId } from "./hosts/host-locations.js";
export type { DetectedHostConfig } from "./hosts/load-host-configs.js";
export type { ConfiguredServer } from "./layers/configured-server.js";
export type { OAuthOptions } from "./layers/server-entry.js";
export type { SettingKey, Settings } from "./layers/settings.js";
export type { SourceScope } from "./layers/source-scope.js";
export { type LoadConfigOptions, loadConfig } from "./load-config.js";
export { configHash, definitionHash } from "./merge/definition-hash.js";
export { type ConfigProblem, formatProblem } from "./problems.js";
export type { ResolvedConfig } from "./resolved-config.js";
export { interpolate } from "./secrets/interpolate.js";
export { maskServerDefinition } from "./secrets/mask-server-definition.js";
export { keepHeadersAtOrigin } from "./secrets/origin-headers.js";
export {
  type PrepareConnectionOptions,
  type PreparedConnection,
  prepareConnection,
  resolveOAuthClientSecret,
} from "./secrets/prepare-connection.js";
export { RefreshingSecret, type RefreshingSecretOptions } from "./secrets/refreshing-secret.js";
export { runSecretCommand, type SecretCommandRunner } from "./secrets/secret-command.js";
export { type SecretFetch, type SecretHeader, SecretHeaders } from "./secrets/secret-headers.js";
export {
  convertRegistration,
  type ExtensionServerRegistration,
  extensionServers,
  isRegisteredSource,
  REGISTERED_SOURCE_PREFIX,
  registrantLabel,
  withExtensionServers,
} from "./sources/extension-servers.js";
export type { PendingProjectServer } from "./trust/admit-project-servers.js";
export {
  APPROVALS_FILE,
  type ApprovalStore,
  createFileApprovalStore,
  type ProjectServerKey,
} from "./trust/approval-store.js";
export {
  ADMIT_ALL_PROJECT_SERVERS,
  describeProjectServer,
  type ProjectServerApprovalRequest,
  type ProjectTrust,
} from "./trust/project-trust.js";
