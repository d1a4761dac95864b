export {
  AdapterRuntime,
  type AdapterRuntimeOptions,
  type CatalogView,
  MAX_PARALLEL_DISCOVERY,
  type ServerSummary,
} from "./adapter-runtime.js";
export {
  createRuntime,
  loadRuntimeConfig,
  NPX_CACHE_FILE_NAME,
  PACKAGE_VERSION,
  type RuntimeSource,
} from "./create-runtime.js";
export {
  type FormatOptions,
  formatDescribe,
  formatInstructions,
  formatSearch,
  formatServerDetails,
  formatStatus,
} from "./format.js";
export {
  CallGuard,
  type CallGuardOptions,
  type GuardedCallOptions,
  type GuardedCallResult,
} from "./guarded-call.js";
export { openMetadataCache } from "./metadata-cache-file.js";
export {
  createOAuthWiring,
  type OAuthSettings,
  type OAuthWiring,
  type OAuthWiringOptions,
  usesOAuth,
} from "./oauth-wiring.js";
export {
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyOutcome,
  type ProxyParams,
  runProxyRequest,
} from "./proxy-request.js";
export { createRuntimeOAuth, type RuntimeOAuthHooks } from "./runtime-oauth.js";
export {
  loadStartupSnapshot,
  type SnapshotServer,
  type StartupSnapshot,
  type StartupSnapshotSource,
} from "./startup-snapshot.js";
export {
  emptyStatusSnapshot,
  MCP_STATUS_EVENT,
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  statusSnapshot,
  watchStatus,
} from "./status-events.js";
export { DEBUG_STDERR_LINES, formatDebugStderr } from "./stderr-tails.js";
export { type ListingSource, ToolCatalog, type ToolCatalogOptions } from "./tool-catalog.js";
