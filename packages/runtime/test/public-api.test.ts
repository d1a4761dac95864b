/**
 * The package's public face is a decision, not an accident: every name
 * `src/index.ts` and `src/startup.ts` export (values and types) must be listed
 * here. Adding an export fails this test until the name is added below, on
 * purpose.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/runtime`: building a runtime, calls, what its sub-objects hand out. */
const PUBLIC_API = [
  // building a runtime, and its host
  "AdapterRuntime",
  "AdapterRuntimeOptions",
  "createRuntime",
  "headlessHost",
  "Host",
  "HostSampler",
  "RuntimeOAuthHooks",
  "RuntimeSource",
  "SamplingResponse",
  "warmUpSearch",
  // the error family
  "RuntimeError",
  "RuntimeErrorCode",
  // calls
  "CallObserver",
  "CallRecord",
  "CallRequest",
  "CallResult",
  "CallTarget",
  "HostOutcome",
  // what the sub-objects hand out (their other types are read off `AdapterRuntime`)
  "CatalogView",
  "MAX_PARALLEL_DISCOVERY",
  // the proxy tool's dispatch and the tools' outcomes
  "ProxyDetails",
  "ProxyOutcome",
  "runProxyRequest",
  // MCP skills by name: the proxy tool, the shell's /skill: and the CLI
  "runSkillRequest",
];

/**
 * `@pi-mcp-adapter/runtime/startup`: what a host needs before any server runs.
 * Texts only a host shows (the prompt list, the stats table, the task and
 * token-cost lines) are the host's own, not runtime's.
 */
const STARTUP_API = [
  // the model-facing tools' declarations, and mcpScript's dispatch
  "INSTALL_ACTION",
  "PROXY_TOOL_NAME",
  "PROXY_TOOL_PARAMETERS",
  "ProxyParams",
  "proxyToolDescription",
  "runScriptRequest",
  // the startup snapshot and direct tools
  "checkArguments",
  "DirectTool",
  "DirectToolPlan",
  "DirectToolSettings",
  "directSelection",
  "directToolSettings",
  "loadStartupSnapshot",
  "planDirectTools",
  "serversNeedingListing",
  "snapshotAutoDirect",
  "StartupSnapshot",
  // prompt commands (their argument parser and texts are the shell's)
  "PromptEntry",
  "promptEntries",
  // status snapshots and texts
  "descriptionFirstLine",
  "formatDebugStderr",
  "formatStatus",
  "McpServerState",
  "McpServerStatus",
  "McpStatusSnapshot",
  "ServerSummary",
  "sharedLabel",
  "statusSnapshot",
  "watchStatus",
  // tool pinning: what changed, for status screens and trust-tools
  "formatToolChanges",
  "toolChangeSummary",
  // token cost per server, and how a host declares a direct tool (what the cost counts)
  "directDeclaration",
  "liveTokenCosts",
  "ServerTokenCost",
  "snapshotTokenCosts",
];

const exportsOf = new Map<string, string[]>();

/** Every name an entry point exports, types included, as the compiler sees it (read once per entry). */
function exportedNames(file: string): string[] {
  const known = exportsOf.get(file);
  if (known) return known;
  const entry = fileURLToPath(new URL(`../src/${file}`, import.meta.url));
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
  const names = checker.getExportsOfModule(module).map((symbol) => symbol.name);
  exportsOf.set(file, names);
  return names;
}

describe("public API", () => {
  it.each([
    ["index.ts", PUBLIC_API],
    ["startup.ts", STARTUP_API],
  ])("%s exports exactly the listed names", (file, listed) => {
    const exported = exportedNames(file);
    const unlisted = exported.filter((name) => !listed.includes(name));
    const missing = listed.filter((name) => !exported.includes(name));
    expect({ unlisted, missing }).toEqual({ unlisted: [], missing: [] });
  });

  it("keeps the whole face (root and ./startup) at most 60 names, and each name in one entry only", () => {
    const root = exportedNames("index.ts");
    const startup = exportedNames("startup.ts");
    expect(root.length + startup.length).toBeLessThanOrEqual(60);
    expect(root.filter((name) => startup.includes(name))).toEqual([]);
  });
});
