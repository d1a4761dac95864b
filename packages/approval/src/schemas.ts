/**
 * `@pi-mcp-adapter/approval/schemas`: the `approveTools` setting's zod schema
 * (core's, shared with config) and the check of a raw value. Importing it
 * loads zod; the package root does not.
 */
export { type ApproveToolsSetting, ApproveToolsSettingSchema } from "@pi-mcp-adapter/core/schemas";
export { parseApproveToolsSetting } from "./parse-approve-tools.js";
