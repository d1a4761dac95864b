export {
  type ApprovalDecision,
  MCP_TOOL_APPROVAL_REQUEST_EVENT,
  type ToolApprovalRequest,
} from "@pi-mcp-adapter/approval";
export { createMcpAdapter, hasNativeMcp, type McpAdapterOptions } from "./extension.js";
export {
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  type McpOAuthStatus,
  type McpOAuthTokens,
  updateMcpOAuthTokensForUrl,
} from "./oauth.js";
export {
  AdapterRuntime,
  type AdapterRuntimeOptions,
  type CatalogView,
  MAX_PARALLEL_DISCOVERY,
  type ServerSummary,
} from "./runtime/adapter-runtime.js";
export { createRuntime, PACKAGE_VERSION, type RuntimeSource } from "./runtime/create-runtime.js";
export {
  CallGuard,
  type CallGuardOptions,
  type GuardedCallOptions,
  type GuardedCallResult,
} from "./runtime/guarded-call.js";
export { PROXY_TOOL_DESCRIPTION, PROXY_TOOL_NAME, PROXY_TOOL_PARAMETERS } from "./runtime/proxy-request.js";
export {
  emptyStatusSnapshot,
  MCP_STATUS_EVENT,
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  statusSnapshot,
} from "./status-events.js";
