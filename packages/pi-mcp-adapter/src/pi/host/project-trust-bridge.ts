/**
 * Answers the config layer's project-trust questions from Pi: Pi 1.x says
 * whether the project is trusted (`ctx.isProjectTrusted()`); the 0.7x line
 * has no trust feature, so only per-definition approval applies there.
 * Approvals are remembered in `<agent dir>/mcp-adapter-approvals.json`.
 */
import path from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import {
  APPROVALS_FILE,
  createFileApprovalStore,
  describeProjectServer,
  type ProjectServerApprovalRequest,
  type ProjectTrust,
} from "@pi-mcp-adapter/config";

/** Pi 1.x's answer; `undefined` on the 0.7x line, which has no trust feature. */
export function hostProjectTrust(ctx: ExtensionContext): boolean | undefined {
  const isTrusted = (ctx as unknown as { isProjectTrusted?: () => boolean }).isProjectTrusted;
  return typeof isTrusted === "function" ? isTrusted.call(ctx) : undefined;
}

const approvalStore = (agentDir: string) => createFileApprovalStore(path.join(agentDir, APPROVALS_FILE));

/**
 * What is known before a session asks: earlier approvals only (no trust
 * answer, no dialog). Used for the startup snapshot.
 */
export function rememberedProjectTrust(agentDir: string): ProjectTrust {
  return { trusted: undefined, approvals: approvalStore(agentDir) };
}

export function projectTrustFor(ctx: ExtensionContext, agentDir: string): ProjectTrust {
  return {
    trusted: hostProjectTrust(ctx),
    approvals: approvalStore(agentDir),
    confirm: ctx.hasUI
      ? (request) => ctx.ui.confirm("Allow project MCP server?", describeRequest(request))
      : undefined,
  };
}

function describeRequest(request: ProjectServerApprovalRequest): string {
  return [...describeProjectServer(request), "Allow it? (Asked again if its definition changes.)"].join("\n");
}
