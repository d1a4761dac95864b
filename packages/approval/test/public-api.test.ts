/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/approval` (src/index.ts). */
const ROOT = [
  "ApprovalCall",
  "ApprovalDecision",
  "ApprovalDialog",
  "ApprovalError",
  "ApprovalErrorCode",
  "ApprovalEventBus",
  "ApprovalGate",
  "ApprovalGateOptions",
  "ApprovalOrigin",
  "ApprovalOutcome",
  "ApprovalPolicy",
  "ApprovalPrompt",
  "ApprovalTool",
  "ApprovalVia",
  "ApproveToolsSetting",
  "DialogDecision",
  "GrantScope",
  "MCP_TOOL_APPROVAL_REQUEST_EVENT",
  "SelectPrompt",
  "SessionGrant",
  "SkillApprovalSubject",
  "ToolApprovalRequest",
  "ToolChangeNotice",
  "formatApprovalRefusal",
  "needsApproval",
  "selectApprovalDialog",
];

/** `@pi-mcp-adapter/approval/schemas` (src/schemas.ts): loads zod. */
const SCHEMAS = ["ApproveToolsSetting", "ApproveToolsSettingSchema", "parseApproveToolsSetting"];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/approval exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/approval/schemas exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/schemas.ts", import.meta.url), SCHEMAS)).toEqual(NONE);
  });
});
