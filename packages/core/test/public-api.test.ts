/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/core` (src/index.ts). */
const ROOT = [
  "AdapterEnvironment",
  "EnvironmentOverrides",
  "expandHome",
  "processEnvironment",
  "ApproveToolsSetting",
  "ContentBlock",
  "CORE_VERSION",
  "CreateMessageParams",
  "CreateMessageResult",
  "ElicitRequestParams",
  "ElicitResult",
  "FileLockOptions",
  "JsonSchemaObject",
  "LEGACY_UI_RESOURCE_URI_KEY",
  "Lifecycle",
  "LineSink",
  "LineSplitter",
  "McpAdapterError",
  "OutputGuardLimits",
  "OutputGuardSetting",
  "OversizedLine",
  "packageVersion",
  "PinToolsSetting",
  "PromptResult",
  "Provenance",
  "RemotePrompt",
  "RemoteResource",
  "RemoteResourceTemplate",
  "RemoteTool",
  "ResourceContents",
  "Root",
  "SamplingMessage",
  "SandboxSetting",
  "ServerDefinition",
  "TaskMode",
  "TaskSupport",
  "ToolAnnotations",
  "ToolCallResult",
  "ToolMetadata",
  "ToolNames",
  "ToolPrefixMode",
  "ToolUi",
  "ToonEncodeSetting",
  "TransportKind",
  "WriteFileAtomicOptions",
  "canonicalJson",
  "definitionContent",
  "definitionKey",
  "describeError",
  "filesStamp",
  "foldName",
  "isAppOnly",
  "isHiddenFromApp",
  "matchesAnyToolGlob",
  "matchesToolGlob",
  "prefixedToolName",
  "processAlive",
  "serverPrefix",
  "toolGlobMatcher",
  "toolUiOf",
  "uniqueToolNames",
  "withFileLock",
  "writeFileAtomic",
];

/** `@pi-mcp-adapter/core/schemas` (src/schemas.ts): the zod schemas, each with its type. */
const SCHEMAS = [
  "ApproveToolsSetting",
  "ApproveToolsSettingSchema",
  "FailureBackoffMsSchema",
  "IdleTimeoutMinutesSchema",
  "JsonSchemaObject",
  "JsonSchemaObjectSchema",
  "Lifecycle",
  "LifecycleSchema",
  "MaxTotalTimeoutMsSchema",
  "OutputGuardLimits",
  "OutputGuardLimitsSchema",
  "OutputGuardSetting",
  "OutputGuardSettingSchema",
  "PinToolsSetting",
  "PinToolsSettingSchema",
  "ProtocolModeSchema",
  "Provenance",
  "ProvenanceSchema",
  "RequestTimeoutMsSchema",
  "SandboxSetting",
  "SandboxSettingSchema",
  "SearchKeywordsSettingSchema",
  "ServerDefinition",
  "ServerDefinitionSchema",
  "ShareServersSettingSchema",
  "SpillMaxAgeDaysSchema",
  "TaskMode",
  "TaskModeSchema",
  "TaskSupport",
  "TaskSupportSchema",
  "TaskTimeoutMsSchema",
  "ToolAnnotations",
  "ToolAnnotationsSchema",
  "ToolGlobListSchema",
  "ToolMetadata",
  "ToolMetadataSchema",
  "ToolPrefixMode",
  "ToolPrefixModeSchema",
  "ToolUi",
  "ToolUiSchema",
  "ToonEncodeSetting",
  "ToonEncodeSettingSchema",
  "TransportKind",
  "TransportKindSchema",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/core exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/core/schemas exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/schemas.ts", import.meta.url), SCHEMAS)).toEqual(NONE);
  });
});
