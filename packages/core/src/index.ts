export {
  type AdapterEnvironment,
  type EnvironmentOverrides,
  expandHome,
  processEnvironment,
} from "./adapter-environment.js";
export { canonicalJson, definitionContent, definitionKey } from "./definition-key.js";
export { describeError, McpAdapterError } from "./errors.js";
export { type FileLockOptions, withFileLock } from "./file-lock.js";
export { type LineSink, LineSplitter, type OversizedLine } from "./line-splitter.js";
export type {
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  PromptResult,
  RemotePrompt,
  RemoteResource,
  RemoteResourceTemplate,
  RemoteTool,
  ResourceContents,
  Root,
  SamplingMessage,
  ToolCallResult,
} from "./mcp-wire.js";
export { processAlive } from "./process-alive.js";
export {
  type Lifecycle,
  LifecycleSchema,
  ProtocolModeSchema,
  type Provenance,
  ProvenanceSchema,
  type ServerDefinition,
  ServerDefinitionSchema,
  type ToolPrefixMode,
  ToolPrefixModeSchema,
  type TransportKind,
  TransportKindSchema,
} from "./server-definition.js";
export {
  type ApproveToolsSetting,
  ApproveToolsSettingSchema,
  FailureBackoffMsSchema,
  IdleTimeoutMinutesSchema,
  MaxTotalTimeoutMsSchema,
  type OutputGuardLimits,
  OutputGuardLimitsSchema,
  type OutputGuardSetting,
  OutputGuardSettingSchema,
  type PinToolsSetting,
  PinToolsSettingSchema,
  RequestTimeoutMsSchema,
  type SandboxSetting,
  SandboxSettingSchema,
  SearchKeywordsSettingSchema,
  ShareServersSettingSchema,
  SpillMaxAgeDaysSchema,
  type TaskMode,
  TaskModeSchema,
  TaskTimeoutMsSchema,
  ToolGlobListSchema,
  type ToonEncodeSetting,
  ToonEncodeSettingSchema,
} from "./setting-schemas.js";
export { matchesAnyToolGlob, matchesToolGlob, type ToolNames, toolGlobMatcher } from "./tool-glob.js";
export {
  type JsonSchemaObject,
  JsonSchemaObjectSchema,
  type TaskSupport,
  TaskSupportSchema,
  type ToolAnnotations,
  ToolAnnotationsSchema,
  type ToolMetadata,
  ToolMetadataSchema,
} from "./tool-metadata.js";
export { foldName, prefixedToolName, serverPrefix } from "./tool-naming.js";
export {
  isAppOnly,
  isHiddenFromApp,
  LEGACY_UI_RESOURCE_URI_KEY,
  type ToolUi,
  ToolUiSchema,
  toolUiOf,
} from "./tool-ui.js";
export { uniqueToolNames } from "./unique-tool-names.js";
export { type WriteFileAtomicOptions, writeFileAtomic } from "./write-file-atomic.js";
