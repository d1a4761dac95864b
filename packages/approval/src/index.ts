export {
  APPROVAL_CHOICES,
  type ApprovalDialog,
  type ApprovalPrompt,
  approvalTitle,
  type DialogDecision,
  type SelectPrompt,
  selectApprovalDialog,
} from "./approval-dialog.js";
export {
  type ApprovalCall,
  ApprovalGate,
  type ApprovalGateOptions,
  type ApprovalOutcome,
  type ApprovalVia,
  formatApprovalRefusal,
} from "./approval-gate.js";
export {
  type ApprovalDecision,
  type ApprovalEventBus,
  type ApprovalOrigin,
  type BrokerCall,
  type BrokerResult,
  brokerApproval,
  MCP_TOOL_APPROVAL_REQUEST_EVENT,
  type ToolApprovalRequest,
} from "./approval-request.js";
export {
  type ApprovalPolicy,
  type ApprovalTool,
  type ApproveToolsSetting,
  ApproveToolsSettingSchema,
  needsApproval,
  parseApproveToolsSetting,
} from "./approve-tools-setting.js";
export { ApprovalError } from "./errors.js";
