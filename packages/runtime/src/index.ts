/**
 * The public face of `@pi-mcp-adapter/runtime`: what a host (the Pi shell,
 * the CLI, another program) needs to run the adapter without Pi.
 *
 * Every name exported here is public API: adding one is a decision, and
 * `test/public-api.test.ts` fails until the name is also listed there.
 * Everything else under `src/` is internal and may change in any release;
 * the package's own tests import internals by path.
 *
 * What is here, by use:
 * - build a runtime: `createRuntime` (from config files) or `AdapterRuntime`
 *   (from definitions and a ready `connect`), and the `Host` it talks to;
 * - the model-facing tools: the `mcp` proxy and `mcpScript`, their schemas
 *   and dispatch, and their typed outcomes;
 * - what hosts show or register: status snapshots and text, direct tools,
 *   prompt commands, the startup snapshot, stats;
 * - the error family.
 */

// Building a runtime, and the host it runs in.
export { AdapterRuntime } from "./adapter-runtime.js";
export type { CallRequest } from "./calls/call-pipeline.js";
export type { CallDetails, CallResult, HostOutcome } from "./calls/call-result.js";
export { textResult } from "./calls/call-result.js";
export type { CallTarget } from "./calls/call-target.js";
export { checkArguments } from "./calls/check-arguments.js";
export { promptUserMessage } from "./calls/prompt-message.js";
export type { ResourceWatch } from "./calls/resource-watches.js";
export { cachedToolChanges } from "./calls/tool-pins.js";
// What hosts show and register.
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
export {
  type CatalogView,
  type ListingChangeReason,
  type ListingListener,
  MAX_PARALLEL_DISCOVERY,
} from "./catalog/runtime-catalog.js";
export {
  declarationText,
  directDeclaration,
  estimateTokens,
  formatTokenCosts,
  liveTokenCosts,
  type ServerTokenCost,
  serverTokenCosts,
  snapshotTokenCosts,
  type TokenCostServer,
  type TokenCostSource,
  type ToolDeclaration,
} from "./catalog/token-cost.js";
export { type ClientHandlerSettings, clientHandlersFor } from "./client-features/client-handlers.js";
export { pickModelByHints } from "./client-features/sampling-flow.js";
export { SessionRoots } from "./client-features/session-roots.js";
export { createRuntime, type RuntimeSource } from "./create-runtime.js";
export { RuntimeError, type RuntimeErrorCode } from "./errors.js";
export { formatStatus, formatTaskStatus } from "./format/format.js";
export {
  formatToolChanges,
  type ServerToolChanges,
  toolChangeLines,
  toolChangeSummary,
  trustToolsCommand,
} from "./format/tool-changes.js";
export { formatWatches, watchLine } from "./format/watch-list.js";
export {
  type Host,
  type HostDialogs,
  type HostSampler,
  headlessHost,
  type SamplingResponse,
} from "./host.js";
export type { RuntimeOAuthHooks } from "./oauth/runtime-oauth.js";
export type { CallObserver, CallRecord } from "./observability/call-observers.js";
export type { RunningTask } from "./observability/running-tasks.js";
export { sharedLabel } from "./observability/shared-label.js";
export { formatStats } from "./observability/stats-observer.js";
export {
  emptyStatusSnapshot,
  MCP_STATUS_EVENT,
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  type McpTaskStatus,
  type ServerSummary,
  statusSnapshot,
  watchStatus,
} from "./observability/status-events.js";
export {
  MCP_STATUS_V1_EVENT,
  type McpServerStateV1,
  type McpServerStatusV1,
  type McpStatusSnapshotV1,
  statusSnapshotV1,
} from "./observability/status-v1.js";
export type { AdapterRuntimeOptions } from "./runtime-options.js";
export type { Connect } from "./servers/server-set.js";
export { formatDebugStderr } from "./servers/stderr-tails.js";
export { warmUpSearch } from "./startup/search-warm-up.js";
export {
  loadStartupSnapshot,
  type StartupSnapshot,
  snapshotAutoDirect,
} from "./startup/startup-snapshot.js";
// The model-facing tools.
export {
  INSTALL_ACTION,
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  proxyToolDescription,
  runProxyRequest,
} from "./tools/proxy-request.js";
export {
  runScriptRequest,
  SCRIPT_TOOL_DESCRIPTION,
  SCRIPT_TOOL_NAME,
  SCRIPT_TOOL_PARAMETERS,
} from "./tools/script-request.js";
export type { ProxyDetails, ProxyOutcome, ScriptDetails } from "./tools/tool-outcomes.js";
