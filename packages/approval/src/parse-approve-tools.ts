/**
 * The check of a raw `approveTools` value with core's `ApproveToolsSettingSchema`
 * (loads zod: reached through the package's `./schemas` entry only).
 */
import type { ApproveToolsSetting } from "@pi-mcp-adapter/core";
import { ApproveToolsSettingSchema } from "@pi-mcp-adapter/core/schemas";
import { ApprovalError } from "./errors.js";

/**
 * Parses a raw setting with core's `ApproveToolsSettingSchema`; `where` names
 * its place (file and field) in the error message.
 */
export function parseApproveToolsSetting(value: unknown, where: string): ApproveToolsSetting {
  const parsed = ApproveToolsSettingSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApprovalError(
    "invalid_approve_tools",
    `${where}: ${parsed.error.issues[0]?.message ?? "invalid value"} (got ${JSON.stringify(value)?.slice(0, 80)})`,
  );
}
