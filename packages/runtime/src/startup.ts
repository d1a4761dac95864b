/**
 * `@pi-mcp-adapter/runtime/startup`: what a host needs before any server
 * runs — the startup snapshot (config and metadata cache), the proxy tool's
 * declaration and mcpScript's dispatch (the script tool's declaration is the
 * script package's `./tool` entry), direct-tool planning, prompt entries,
 * the status snapshot, token costs, and the status and tool-change texts
 * (texts only a host shows — the prompt list, stats, task and token-cost
 * lines — are the host's own).
 * None of it loads the call path, the transport or the search package, so a
 * host's start-up stays small. The package root does not repeat these names.
 */

export { checkArguments } from "./calls/check-arguments.js";
export {
  type DirectTool,
  type DirectToolPlan,
  type DirectToolSettings,
  directSelection,
  directToolSettings,
  planDirectTools,
  serversNeedingListing,
} from "./catalog/direct-tools.js";
export { type PromptEntry, promptEntries } from "./catalog/prompt-catalog.js";
export { descriptionFirstLine } from "./format/description-text.js";
export { formatStatus } from "./format/status-text.js";
export { formatToolChanges, toolChangeSummary } from "./format/tool-changes.js";
export { sharedLabel } from "./observability/shared-label.js";
export {
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  type ServerSummary,
  statusSnapshot,
  watchStatus,
} from "./observability/status-events.js";
export { formatDebugStderr } from "./servers/stderr-tails.js";
export { snapshotTokenCosts } from "./startup/snapshot-token-costs.js";
export {
  loadStartupSnapshot,
  type StartupSnapshot,
  snapshotAutoDirect,
} from "./startup/startup-snapshot.js";
export {
  INSTALL_ACTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  proxyToolDescription,
} from "./tools/proxy-tool.js";
export { runScriptRequest } from "./tools/script-request.js";
export { directDeclaration, liveTokenCosts, type ServerTokenCost } from "./tools/token-cost.js";
