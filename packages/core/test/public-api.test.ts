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
  "ApproveToolsSetting",
  "ApproveToolsSettingSchema",
  "ContentBlock",
  "CreateMessageParams",
  "CreateMessageResult",
  "ElicitRequestParams",
  "ElicitResult",
  "FailureBackoffMsSchema",
  "FileLockOptions",
  "IdleTimeoutMinutesSchema",
  "JsonSchemaObject",
  "JsonSchemaObjectSchema",
  "LEGACY_UI_RESOURCE_URI_KEY",
  "Lifecycle",
  "LifecycleSchema",
  "LineSink",
  "LineSplitter",
  "MaxTotalTimeoutMsSchema",
  "McpAdapterError",
  "OutputGuardLimits",
  "OutputGuardLimitsSchema",
  "OutputGuardSetting",
  "OutputGuardSettingSchema",
  "OversizedLine",
  "PinToolsSetting",
  "PinToolsSettingSchema",
  "PromptResult",
  "ProtocolModeSchema",
  "Provenance",
  "ProvenanceSchema",
  "RemotePrompt",
  "RemoteResource",
  "RemoteResourceTemplate",
  "RemoteTool",
  "RequestTimeoutMsSchema",
  "ResourceContents",
  "Root",
  "SamplingMessage",
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
  "ToolCallResult",
  "ToolGlobListSchema",
  "ToolMetadata",
  "ToolMetadataSchema",
  "ToolNames",
  "ToolPrefixMode",
  "ToolPrefixModeSchema",
  "ToolUi",
  "ToolUiSchema",
  "ToonEncodeSetting",
  "ToonEncodeSettingSchema",
  "TransportKind",
  "TransportKindSchema",
  "WriteFileAtomicOptions",
  "canonicalJson",
  "definitionContent",
  "definitionKey",
  "describeError",
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

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/core exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });
});
