export {
  type ApprovalDecision,
  MCP_TOOL_APPROVAL_REQUEST_EVENT,
  type ToolApprovalRequest,
} from "@pi-mcp-adapter/approval";
export {
  AdapterRuntime,
  type AdapterRuntimeOptions,
  CallGuard,
  type CallGuardOptions,
  type CatalogView,
  createRuntime,
  emptyStatusSnapshot,
  type GuardedCallOptions,
  type GuardedCallResult,
  MAX_PARALLEL_DISCOVERY,
  MCP_STATUS_EVENT,
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  PACKAGE_VERSION,
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type RuntimeSource,
  type ServerSummary,
  statusSnapshot,
} from "@pi-mcp-adapter/runtime";
export { createMcpAdapter, hasNativeMcp, type McpAdapterOptions } from "./extension.js";
export {
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  type McpOAuthStatus,
  type McpOAuthTokens,
  updateMcpOAuthTokensForUrl,
} from "./oauth.js";
