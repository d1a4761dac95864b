/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/script` (src/index.ts). */
const ROOT = [
  "DEFAULT_SCRIPT_TIMEOUT_MS",
  "RunScriptOptions",
  "SCRIPT_TOOL_DESCRIPTION",
  "SCRIPT_TOOL_NAME",
  "SCRIPT_TOOL_PARAMETERS",
  "SCRIPT_TRANSFER_BUDGET_BYTES",
  "ScriptArgumentsError",
  "ScriptArgumentsErrorCode",
  "ScriptCallOptions",
  "ScriptCallResult",
  "ScriptDescribeQuery",
  "ScriptErrorCode",
  "ScriptHost",
  "ScriptLogLine",
  "ScriptOutcome",
  "ScriptSearchQuery",
  "formatScriptOutcome",
  "parseScriptParams",
  "runScript",
];

/** `@pi-mcp-adapter/script/tool` (src/script-tool.ts). */
const TOOL = [
  "SCRIPT_TOOL_DESCRIPTION",
  "SCRIPT_TOOL_NAME",
  "SCRIPT_TOOL_PARAMETERS",
  "ScriptArgumentsError",
  "ScriptArgumentsErrorCode",
  "ScriptParams",
  "formatScriptOutcome",
  "parseScriptParams",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/script exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/script/tool exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/script-tool.ts", import.meta.url), TOOL)).toEqual(NONE);
  });
});
