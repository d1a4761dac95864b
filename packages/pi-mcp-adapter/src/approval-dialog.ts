/**
 * Pi's side of tool approval: the dialog (Pi's `select`, which `--mode rpc`
 * forwards as an `extension_ui_request`) where Pi has a UI, none where it has
 * not (print and json modes), so calls needing approval fail closed there.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type ApprovalDialog, selectApprovalDialog } from "@pi-mcp-adapter/approval";

export function approvalDialogFor(ctx: ExtensionContext): ApprovalDialog | undefined {
  if (!ctx.hasUI) return undefined;
  return selectApprovalDialog((title, options, opts) => ctx.ui.select(title, options, opts));
}
