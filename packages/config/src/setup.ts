/**
 * `@pi-mcp-adapter/config/setup`: writing config files — adding, removing,
 * disabling and editing servers (comments and formatting kept), the setup
 * overview and host imports. Kept off the package's root entry so that
 * loading config at a session start does not load the editing code and
 * jsonc-parser's formatter.
 */
export {
  ADD_SERVER_FLAGS,
  ADD_SERVER_USAGE,
  type AddServerFlags,
  type AddServerRequest,
  addServerRequest,
  parseAddServerArgs,
} from "./setup/add-server-args.js";
export { type AddServersResult, addServers, createProjectConfig } from "./setup/add-servers.js";
export { type AdoptHostsResult, adoptHostImports } from "./setup/adopt-hosts.js";
export { CURATED_SERVERS, type CuratedServer, findCuratedServer } from "./setup/curated-servers.js";
export { type ConfigEdit, editConfigFile } from "./setup/edit-config-file.js";
export { formatConfigPaths, formatSetupOverview, type SetupCommands } from "./setup/format-setup.js";
export { type InitResult, initHostImports } from "./setup/init-host-imports.js";
export { checkConfigText, replaceConfigText } from "./setup/replace-config-text.js";
export {
  type AddServerResult,
  addServerToFile,
  removeServerFromFile,
  serverConfigFile,
} from "./setup/server-file-edits.js";
export {
  type ConfigPathInfo,
  type HostConfigInfo,
  type PiNativeConfigInfo,
  readSetupOverview,
  type SetupOverview,
  type SetupOverviewOptions,
} from "./setup/setup-overview.js";
export { type SetServerDisabledOptions, setServerDisabled } from "./setup/toggle-server.js";
