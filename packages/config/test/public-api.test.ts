/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/config` (src/index.ts). */
const ROOT = [
  "VALIDATED_CONFIG_FILE",
  "interpolate",
  "keepHeadersAtOrigin",
  "ADMIT_ALL_PROJECT_SERVERS",
  "AGENT_CONFIG_FILE",
  "APPROVALS_FILE",
  "ApprovalStore",
  "ConfigEnvironment",
  "ConfigError",
  "ConfigErrorCode",
  "ConfigProblem",
  "ConfiguredServer",
  "DetectedHostConfig",
  "ExtensionServerRegistration",
  "HOST_IDS",
  "HostId",
  "LoadConfigOptions",
  "OAuthOptions",
  "PROJECT_OVERRIDE_FILE",
  "PendingProjectServer",
  "PrepareConnectionOptions",
  "PreparedConnection",
  "ProjectServerApprovalRequest",
  "ProjectServerKey",
  "ProjectTrust",
  "REGISTERED_SOURCE_PREFIX",
  "RefreshingSecret",
  "RefreshingSecretOptions",
  "ResolvedConfig",
  "SecretCommandRunner",
  "SecretFetch",
  "SecretHeader",
  "SecretHeaders",
  "SettingKey",
  "Settings",
  "SourceScope",
  "configHash",
  "convertRegistration",
  "createFileApprovalStore",
  "defaultConfigEnvironment",
  "definitionHash",
  "describeProjectServer",
  "extensionServers",
  "formatProblem",
  "isHostId",
  "isRegisteredSource",
  "loadConfig",
  "maskServerDefinition",
  "prepareConnection",
  "projectConfigFiles",
  "readConfigText",
  "registrantLabel",
  "resolveOAuthClientSecret",
  "runSecretCommand",
  "userConfigFiles",
  "withExtensionServers",
];

/** `@pi-mcp-adapter/config/setup` (src/setup.ts). */
const SETUP = [
  "ADD_SERVER_FLAGS",
  "ADD_SERVER_USAGE",
  "AddServerFlags",
  "AddServerRequest",
  "AddServerResult",
  "AddServersResult",
  "AdoptHostsResult",
  "CURATED_SERVERS",
  "ConfigEdit",
  "ConfigPathInfo",
  "CuratedServer",
  "HostConfigInfo",
  "InitResult",
  "PiNativeConfigInfo",
  "SetServerDisabledOptions",
  "SetupCommands",
  "SetupOverview",
  "SetupOverviewOptions",
  "addServerRequest",
  "addServerToFile",
  "addServers",
  "adoptHostImports",
  "checkConfigText",
  "createProjectConfig",
  "editConfigFile",
  "findCuratedServer",
  "formatConfigPaths",
  "formatSetupOverview",
  "initHostImports",
  "parseAddServerArgs",
  "readSetupOverview",
  "removeServerFromFile",
  "replaceConfigText",
  "serverConfigFile",
  "setServerDisabled",
];

/** `@pi-mcp-adapter/config/schemas` (src/schemas.ts): what loads zod. */
const SCHEMAS = [
  "CheckIssue",
  "CheckResult",
  "LayerCheck",
  "OAuthOptions",
  "OAuthOptionsSchema",
  "SettingKey",
  "Settings",
  "SettingsSchema",
  "zodLayerCheck",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/config exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/config/setup exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/setup.ts", import.meta.url), SETUP)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/config/schemas exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/schemas.ts", import.meta.url), SCHEMAS)).toEqual(NONE);
  });
});
