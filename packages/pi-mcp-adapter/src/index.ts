export {
  type ApprovalDecision,
  MCP_TOOL_APPROVAL_REQUEST_EVENT,
  type ToolApprovalRequest,
} from "@pi-mcp-adapter/approval";
export {
  AdapterRuntime,
  type AdapterRuntimeOptions,
  type CallObserver,
  type CallRecord,
  type CallRequest,
  type CallResult,
  type CallTarget,
  type CatalogView,
  createRuntime,
  type Host,
  headlessHost,
  MAX_PARALLEL_DISCOVERY,
  type RuntimeSource,
} from "@pi-mcp-adapter/runtime";
export {
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ServerSummary,
  statusSnapshot,
} from "@pi-mcp-adapter/runtime/startup";
export {
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  type McpOAuthStatus,
  type McpOAuthTokens,
  updateMcpOAuthTokensForUrl,
} from "./oauth.js";
export { PACKAGE_VERSION } from "./package-version.js";
export { createMcpAdapter, hasNativeMcp, type McpAdapterOptions } from "./pi/extension.js";
export { RUNTIME_REGISTER_EVENT, type RuntimeRegisterRequest } from "./pi/session/server-registrations.js";
export {
  emptyStatusSnapshot,
  MCP_STATUS_EVENT,
  MCP_STATUS_V1_EVENT,
  type McpServerStatusV1,
  type McpStatusSnapshotV1,
} from "./pi/status/status-v1.js";
export { PROXY_TOOL_DESCRIPTION } from "./pi/tools/proxy-tools.js";
