/**
 * The `approveTools` setting and the rule for when a tool call must be
 * approved by the user.
 */
import type { ToolAnnotations } from "@pi-mcp-adapter/core";
import picomatch from "picomatch";
import { z } from "zod";
import { ApprovalError } from "./errors.js";

/**
 * - `true`: every tool asks; `false`: none does
 * - `"destructive"`: tools that do not declare `readOnlyHint: true`, or declare `destructiveHint: true`
 * - a list of globs (picomatch): matching tools ask. Global globs match prefixed
 *   names (`github_delete_*`); per-server globs match the server's own names (`delete_*`).
 */
export const ApproveToolsSettingSchema = z.union([
  z.boolean(),
  z.literal("destructive"),
  z.array(z.string()),
]);
export type ApproveToolsSetting = z.infer<typeof ApproveToolsSettingSchema>;

/** Parses a raw setting; `where` names its place (file and field) in the error message. */
export function parseApproveToolsSetting(value: unknown, where: string): ApproveToolsSetting {
  const parsed = ApproveToolsSettingSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApprovalError(
    "invalid_approve_tools",
    `${where}: expected true, false, "destructive" or a list of glob strings (got ${JSON.stringify(value)?.slice(0, 80)})`,
  );
}

export interface ApprovalTool {
  /** The tool's name on its server. */
  name: string;
  /** The name the model sees. */
  prefixedName: string;
  annotations?: ToolAnnotations;
}

export interface ApprovalPolicy {
  /** `settings.approveTools`; globs match prefixed names. */
  global?: ApproveToolsSetting;
  /** The server's `approveTools`; wins over `global` when set; globs match original names. */
  server?: ApproveToolsSetting;
}

/** True when a call of `tool` must be approved under `policy`. */
export function needsApproval(tool: ApprovalTool, policy: ApprovalPolicy): boolean {
  const setting = policy.server ?? policy.global;
  const name = policy.server !== undefined ? tool.name : tool.prefixedName;
  if (setting === undefined || setting === false) return false;
  if (setting === true) return true;
  if (setting === "destructive") {
    return tool.annotations?.readOnlyHint !== true || tool.annotations?.destructiveHint === true;
  }
  return setting.some((glob) => matcher(glob)(name));
}

const matchers = new Map<string, (name: string) => boolean>();

function matcher(glob: string): (name: string) => boolean {
  let match = matchers.get(glob);
  if (!match) {
    match = picomatch(glob, { dot: true });
    if (matchers.size > 1000) matchers.clear();
    matchers.set(glob, match);
  }
  return match;
}
