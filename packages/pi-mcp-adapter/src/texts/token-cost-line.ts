/**
 * The token-cost line of `/mcp-adapter status` and the CLI's `status`: what
 * every model request carries for the MCP servers, each server's share, and
 * what it would carry with all its tools direct.
 */
import type { ServerTokenCost } from "@pi-mcp-adapter/runtime/startup";

/** One line for text status: every server's cost now and with all its tools direct. */
export function formatTokenCosts(costs: readonly ServerTokenCost[]): string {
  const total = costs.reduce((n, c) => n + c.perRequest, 0);
  const each = costs.map(
    (c) => `${c.server} ~${c.perRequest}${c.allDirect === null ? "" : ` (all direct ~${c.allDirect})`}`,
  );
  return `Tokens in every request: ~${total}${each.length ? `: ${each.join(", ")}` : ""}`;
}
