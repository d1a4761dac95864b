/**
 * The rule for when a tool call must be approved by the user under the
 * `approveTools` setting (its schema and parse are in parse-approve-tools.ts,
 * behind the `./schemas` entry, so this module loads no zod).
 */
import { type ApproveToolsSetting, matchesAnyToolGlob, type ToolAnnotations } from "@pi-mcp-adapter/core";

export interface ApprovalTool {
  /** The tool's name on its server. */
  name: string;
  /** The name the model sees. */
  prefixedName: string;
  /** The URI a resource read addresses (a template's, expanded); globs match it too. */
  uri?: string;
  annotations?: ToolAnnotations;
}

export interface ApprovalPolicy {
  /** `settings.approveTools`. */
  global?: ApproveToolsSetting;
  /** The server's `approveTools`; wins over `global` when set. */
  server?: ApproveToolsSetting;
}

/**
 * True when a call of `tool` must be approved under `policy`. Globs, global or
 * per server, have core's one meaning (`matchesToolGlob`): case-insensitive,
 * matched against the tool's own name and its prefixed name, and for a
 * resource read against the URI it reads. `"writes"` asks for every tool not
 * annotated `readOnlyHint: true` (resources and prompts are read-only).
 */
export function needsApproval(tool: ApprovalTool, policy: ApprovalPolicy): boolean {
  const setting = policy.server ?? policy.global;
  if (setting === undefined || setting === false) return false;
  if (setting === true) return true;
  if (setting === "destructive") {
    return tool.annotations?.readOnlyHint !== true || tool.annotations?.destructiveHint === true;
  }
  if (setting === "writes") return tool.annotations?.readOnlyHint !== true;
  if (matchesAnyToolGlob(setting, tool)) return true;
  const uri = tool.uri;
  return uri !== undefined && matchesAnyToolGlob(setting, { name: uri, prefixedName: uri });
}
