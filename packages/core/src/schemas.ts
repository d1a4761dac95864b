/**
 * `@pi-mcp-adapter/core/schemas`: the zod schemas of the contracts, each
 * paired with its type. Importing this entry loads zod; code on a host's
 * start path takes the types and plain functions from the package root
 * instead, and loads this entry (with `await import()`) only where a value
 * must be validated.
 */
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
export { type ToolUi, ToolUiSchema } from "./tool-ui-schema.js";
