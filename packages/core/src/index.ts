/**
 * `@pi-mcp-adapter/core`: the contracts' plain parts — types, naming rules,
 * the definition key, globs, the file writer and lock, the error family.
 * Nothing here loads zod, so a host's start-up can import it for free; the
 * zod schemas are `@pi-mcp-adapter/core/schemas` (`schemas.ts`).
 */
export {
  type AdapterEnvironment,
  type EnvironmentOverrides,
  expandHome,
  processEnvironment,
} from "./adapter-environment.js";
export { canonicalJson, definitionContent, definitionKey } from "./definition-key.js";
export { describeError, McpAdapterError } from "./errors.js";
export { type FileLockOptions, withFileLock } from "./file-lock.js";
export { filesStamp } from "./files-stamp.js";
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
export { CORE_VERSION, packageVersion } from "./package-version.js";
export { processAlive } from "./process-alive.js";
export type {
  Lifecycle,
  Provenance,
  ServerDefinition,
  ToolPrefixMode,
  TransportKind,
} from "./server-definition.js";
export type {
  ApproveToolsSetting,
  OutputGuardLimits,
  OutputGuardSetting,
  PinToolsSetting,
  SandboxSetting,
  TaskMode,
  ToonEncodeSetting,
} from "./setting-schemas.js";
export { matchesAnyToolGlob, matchesToolGlob, type ToolNames, toolGlobMatcher } from "./tool-glob.js";
export type {
  JsonSchemaObject,
  TaskSupport,
  ToolAnnotations,
  ToolMetadata,
} from "./tool-metadata.js";
export { foldName, prefixedToolName, serverPrefix } from "./tool-naming.js";
export { isAppOnly, isHiddenFromApp, LEGACY_UI_RESOURCE_URI_KEY, toolUiOf } from "./tool-ui.js";
export type { ToolUi } from "./tool-ui-schema.js";
export { uniqueToolNames } from "./unique-tool-names.js";
export { type WriteFileAtomicOptions, writeFileAtomic } from "./write-file-atomic.js";
