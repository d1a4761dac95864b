/**
 * `/mcp-adapter disable <server>` and `/mcp-adapter enable <server>`: record
 * only the `disabled` field in the project's `.pi/mcp-adapter.json` (never in
 * an untrusted project). The change applies after `/reload`.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { setServerDisabled } from "@pi-mcp-adapter/config";
import { describeError } from "@pi-mcp-adapter/core";
import { hostProjectTrust } from "./project-trust-bridge.js";

/** Handles the command when `args` starts with `disable` or `enable`; returns false otherwise. */
export async function runServerToggleCommand(args: string, ctx: ExtensionContext): Promise<boolean> {
  const [verb, server, ...rest] = args.trim().split(/\s+/);
  if (verb !== "disable" && verb !== "enable") return false;
  if (!server || rest.length > 0) {
    ctx.ui.notify(`Usage: /mcp-adapter ${verb} <server>`, "warning");
    return true;
  }
  try {
    const file = await setServerDisabled({
      cwd: ctx.cwd,
      server,
      disabled: verb === "disable",
      trusted: hostProjectTrust(ctx),
    });
    ctx.ui.notify(`MCP server "${server}" ${verb}d in ${file}. Run /reload to apply.`, "info");
  } catch (error) {
    ctx.ui.notify(`pi-mcp-adapter: ${describeError(error)}`, "error");
  }
  return true;
}
