/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `pi-mcp-adapter` (src/index.ts). */
const ROOT = [
  "AdapterRuntime",
  "AdapterRuntimeOptions",
  "ApprovalDecision",
  "CallObserver",
  "CallRecord",
  "CallRequest",
  "CallResult",
  "CallTarget",
  "CatalogView",
  "Host",
  "MAX_PARALLEL_DISCOVERY",
  "MCP_STATUS_EVENT",
  "MCP_STATUS_V1_EVENT",
  "MCP_TOOL_APPROVAL_REQUEST_EVENT",
  "McpAdapterOptions",
  "McpOAuthStatus",
  "McpOAuthTokens",
  "McpServerState",
  "McpServerStatus",
  "McpServerStatusV1",
  "McpStatusSnapshot",
  "McpStatusSnapshotV1",
  "PACKAGE_VERSION",
  "PROXY_TOOL_DESCRIPTION",
  "PROXY_TOOL_NAME",
  "PROXY_TOOL_PARAMETERS",
  "RUNTIME_REGISTER_EVENT",
  "RuntimeRegisterRequest",
  "RuntimeSource",
  "ServerSummary",
  "ToolApprovalRequest",
  "createMcpAdapter",
  "createRuntime",
  "emptyStatusSnapshot",
  "getMcpOAuthStatus",
  "getMcpOAuthTokensForUrl",
  "hasNativeMcp",
  "headlessHost",
  "statusSnapshot",
  "updateMcpOAuthTokensForUrl",
];

/** `pi-mcp-adapter/oauth` (src/oauth.ts). */
const OAUTH = [
  "McpOAuthStatus",
  "McpOAuthTokens",
  "OAuthError",
  "TokenApiOptions",
  "getMcpOAuthStatus",
  "getMcpOAuthTokensForUrl",
  "updateMcpOAuthTokensForUrl",
];

/** `pi-mcp-adapter/extension` (src/pi/extension.ts). */
const EXTENSION = ["McpAdapterOptions", "createMcpAdapter", "default", "hasNativeMcp"];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("pi-mcp-adapter exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("pi-mcp-adapter/oauth exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/oauth.ts", import.meta.url), OAUTH)).toEqual(NONE);
  });

  it("pi-mcp-adapter/extension exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/pi/extension.ts", import.meta.url), EXTENSION)).toEqual(NONE);
  });
});
