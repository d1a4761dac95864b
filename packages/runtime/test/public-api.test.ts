/**
 * The package's public face is a decision, not an accident: every name
 * `src/index.ts` exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const PUBLIC_API = [
  // building a runtime, and its host
  "AdapterRuntime",
  "AdapterRuntimeOptions",
  "CallDetails",
  "CallObserver",
  "CallRecord",
  "CallRequest",
  "CallResult",
  "CallTarget",
  "CatalogView",
  "Connect",
  "checkArguments",
  "ClientHandlerSettings",
  "clientHandlersFor",
  "createRuntime",
  "headlessHost",
  "Host",
  "HostDialogs",
  "HostOutcome",
  "HostSampler",
  "ListingChangeReason",
  "ListingListener",
  "MAX_PARALLEL_DISCOVERY",
  "ResourceWatch",
  "RuntimeError",
  "RuntimeErrorCode",
  "RuntimeOAuthHooks",
  "RuntimeSource",
  "SamplingResponse",
  "SessionRoots",
  "textResult",
  // the model-facing tools
  "INSTALL_ACTION",
  "PROXY_TOOL_DESCRIPTION",
  "PROXY_TOOL_NAME",
  "PROXY_TOOL_PARAMETERS",
  "ProxyDetails",
  "ProxyOutcome",
  "ProxyParams",
  "proxyToolDescription",
  "runProxyRequest",
  "runScriptRequest",
  "SCRIPT_TOOL_DESCRIPTION",
  "SCRIPT_TOOL_NAME",
  "SCRIPT_TOOL_PARAMETERS",
  "ScriptDetails",
  // what hosts show and register
  "AutoDirect",
  "completionPoint",
  "DirectTool",
  "DirectToolPlan",
  "DirectToolSettings",
  "directSelection",
  "directToolSettings",
  "dedentDescription",
  "descriptionFirstLine",
  "emptyStatusSnapshot",
  "formatDebugStderr",
  "formatPromptList",
  "formatStats",
  "formatStatus",
  "formatTaskStatus",
  "formatWatches",
  "watchLine",
  // tool pinning: what changed, for status screens and trust-tools
  "cachedToolChanges",
  "formatToolChanges",
  "ServerToolChanges",
  "toolChangeLines",
  "toolChangeSummary",
  "trustToolsCommand",
  // token cost per server, with the estimate the benchmarks use
  "declarationText",
  "directDeclaration",
  "estimateTokens",
  "formatTokenCosts",
  "liveTokenCosts",
  "ServerTokenCost",
  "serverTokenCosts",
  "snapshotTokenCosts",
  "TokenCostServer",
  "TokenCostSource",
  "ToolDeclaration",
  "loadStartupSnapshot",
  "MCP_STATUS_EVENT",
  "MCP_STATUS_V1_EVENT",
  "McpServerState",
  "McpServerStateV1",
  "McpServerStatus",
  "McpServerStatusV1",
  "McpStatusSnapshot",
  "McpStatusSnapshotV1",
  "McpTaskStatus",
  "parsePromptArguments",
  "pickModelByHints",
  "PlanInput",
  "planDirectTools",
  "PromptEntry",
  "promptEntries",
  "promptUserMessage",
  "quoteWord",
  "RunningTask",
  "ServerSummary",
  "serversNeedingListing",
  "snapshotAutoDirect",
  "StartupSnapshot",
  "sharedLabel",
  "statusSnapshot",
  "statusSnapshotV1",
  "warmUpSearch",
  "watchStatus",
];

/** Every name the entry point exports, types included, as the compiler sees it. */
function exportedNames(): string[] {
  const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`cannot read ${entry}`);
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

describe("public API", () => {
  it("exports exactly the listed names", () => {
    const exported = exportedNames();
    const unlisted = exported.filter((name) => !PUBLIC_API.includes(name));
    const missing = PUBLIC_API.filter((name) => !exported.includes(name));
    expect({ unlisted, missing }).toEqual({ unlisted: [], missing: [] });
  });
});
