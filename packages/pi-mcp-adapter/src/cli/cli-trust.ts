/**
 * Project trust for the CLI: a project server (from `.mcp.json` or
 * `.pi/mcp-adapter.json`) starts only when its exact definition was approved
 * — in Pi, by `pi-mcp-adapter trust`, or by `--approve-project` for one run.
 * Approvals live in the same store Pi uses
 * (`<agent dir>/mcp-adapter-approvals.json`), keyed by definition hash.
 */
import path from "node:path";
import {
  APPROVALS_FILE,
  type ApprovalStore,
  createFileApprovalStore,
  type PendingProjectServer,
  type ProjectServerApprovalRequest,
  type ProjectTrust,
} from "@pi-mcp-adapter/config";

export function approvalStore(agentDir: string): ApprovalStore {
  return createFileApprovalStore(path.join(agentDir, APPROVALS_FILE));
}

/**
 * Without `approveProject`, only remembered approvals admit a project server.
 * With it, every project server is admitted for this run and nothing is
 * remembered.
 */
export function cliProjectTrust(
  approveProject: boolean,
  agentDir: string,
  confirm?: (request: ProjectServerApprovalRequest) => Promise<boolean>,
): ProjectTrust {
  const store = approvalStore(agentDir);
  if (!approveProject) return { trusted: undefined, approvals: store, ...(confirm ? { confirm } : {}) };
  return {
    trusted: undefined,
    approvals: { isApproved: (key) => store.isApproved(key), approve: async () => {} },
    confirm: async () => true,
  };
}

/** The stderr note for servers a command could not start, naming how to approve them. */
export function awaitingApprovalNote(pending: readonly PendingProjectServer[]): string {
  const names = pending.map((p) => p.name);
  const files = [...new Set(pending.map((p) => p.source.file))].join(", ");
  const one = names.length === 1;
  return [
    `Project server${one ? "" : "s"} ${names.map((n) => `"${n}"`).join(", ")} from ${files} ${one ? "is" : "are"} awaiting approval; the CLI does not start ${one ? "it" : "them"}.`,
    `Review and approve: pi-mcp-adapter trust${one ? ` ${names[0]}` : ""}   (or approve in Pi, or pass --approve-project for one run)`,
  ].join("\n");
}

/** `awaitingApproval` in `--json` output. */
export function pendingJson(pending: readonly PendingProjectServer[]) {
  return pending.map((p) => ({
    name: p.name,
    file: p.source.file,
    key: p.source.key,
    approve: `pi-mcp-adapter trust ${p.name}`,
  }));
}
