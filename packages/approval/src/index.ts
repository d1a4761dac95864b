// The setting's type (its schema and `parseApproveToolsSetting` are at `./schemas`, which loads zod; the root does not).
export type { ApproveToolsSetting } from "@pi-mcp-adapter/core";
export {
  type ApprovalDialog,
  type ApprovalPrompt,
  type DialogDecision,
  type SelectPrompt,
  type SkillApprovalSubject,
  selectApprovalDialog,
} from "./approval-dialog.js";
export {
  type ApprovalCall,
  ApprovalGate,
  type ApprovalGateOptions,
  type ApprovalOutcome,
  type ApprovalVia,
  formatApprovalRefusal,
  type ToolChangeNotice,
} from "./approval-gate.js";
export {
  type ApprovalDecision,
  type ApprovalEventBus,
  type ApprovalOrigin,
  MCP_TOOL_APPROVAL_REQUEST_EVENT,
  type ToolApprovalRequest,
} from "./approval-request.js";
export {
  type ApprovalPolicy,
  type ApprovalTool,
  needsApproval,
} from "./approve-tools-setting.js";
export { ApprovalError, type ApprovalErrorCode } from "./errors.js";
export type { GrantScope, SessionGrant } from "./session-grants.js";
