/**
 * `@pi-mcp-adapter/runtime/startup`: what a host needs before any server
 * runs — the startup snapshot (config and metadata cache), the proxy and
 * script tools' declarations, direct-tool planning, prompt commands, and the
 * status, token-cost and tool-change texts. None of it loads the call path,
 * the transport or the search package, so a host's start-up stays small; the
 * package's index (`createRuntime`, the dispatch) exports all of this too.
 */

export { checkArguments } from "./calls/check-arguments.js";
export { promptUserMessage } from "./calls/prompt-message.js";
export type { AutoDirect } from "./catalog/auto-direct-tools.js";
export {
  type DirectTool,
  type DirectToolPlan,
  type DirectToolSettings,
  directSelection,
  directToolSettings,
  type PlanInput,
  planDirectTools,
  serversNeedingListing,
} from "./catalog/direct-tools.js";
export { completionPoint, parsePromptArguments, quoteWord } from "./catalog/prompt-arguments.js";
export { formatPromptList, type PromptEntry, promptEntries } from "./catalog/prompt-catalog.js";
export { pickModelByHints } from "./client-features/sampling-flow.js";
export { descriptionFirstLine } from "./format/description-text.js";
export { formatStatus, formatTaskStatus } from "./format/status-text.js";
export { formatToolChanges, toolChangeSummary } from "./format/tool-changes.js";
export { formatWatches, watchLine } from "./format/watch-list.js";
export { sharedLabel } from "./observability/shared-label.js";
export { formatStats } from "./observability/stats-observer.js";
export {
  emptyStatusSnapshot,
  MCP_STATUS_EVENT,
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  type ServerSummary,
  statusSnapshot,
  watchStatus,
} from "./observability/status-events.js";
export {
  MCP_STATUS_V1_EVENT,
  type McpServerStatusV1,
  type McpStatusSnapshotV1,
  statusSnapshotV1,
} from "./observability/status-v1.js";
export { formatDebugStderr } from "./servers/stderr-tails.js";
export { snapshotTokenCosts } from "./startup/snapshot-token-costs.js";
export {
  loadStartupSnapshot,
  type StartupSnapshot,
  snapshotAutoDirect,
} from "./startup/startup-snapshot.js";
export {
  INSTALL_ACTION,
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  proxyToolDescription,
} from "./tools/proxy-tool.js";
export {
  runScriptRequest,
  SCRIPT_TOOL_DESCRIPTION,
  SCRIPT_TOOL_NAME,
  SCRIPT_TOOL_PARAMETERS,
} from "./tools/script-request.js";
export {
  declarationText,
  directDeclaration,
  estimateTokens,
  formatTokenCosts,
  liveTokenCosts,
  type ServerTokenCost,
} from "./tools/token-cost.js";
