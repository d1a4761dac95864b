/**
 * "Allow for session" answers kept with Pi's session, so they survive
 * `/resume`, `/tree` navigation and `/reload`: each new grant is appended
 * as a custom session entry, and a runtime made for a session restores the
 * grants its entries hold. The approval gate honours a restored grant only
 * while the server's definition and the tool's fingerprint are unchanged.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { appendSessionEntry, sessionEntryData } from "./session-entries.js";

/** The `customType` of the session entries holding grants. */
export const APPROVAL_GRANT_ENTRY = "pi-mcp-adapter:approval-grant";

/** Restores the session's stored grants into `runtime` and stores each new one; returns the unsubscribe. */
export function keepApprovalGrants(
  pi: ExtensionAPI,
  runtime: AdapterRuntime,
  ctx: ExtensionContext,
): () => void {
  // Grants of every branch: a grant is the user's, whichever branch it was given on.
  runtime.approvals.restoreGrants(sessionEntryData(ctx, APPROVAL_GRANT_ENTRY, "all-branches"));
  return runtime.approvals.onGrant((grant) => appendSessionEntry(pi, APPROVAL_GRANT_ENTRY, grant));
}
