/**
 * `/mcp-adapter disable <server>` and `/mcp-adapter enable <server>`: record
 * only the `disabled` field in the project's `.pi/mcp-adapter.json` (never in
 * an untrusted project). The change applies after `/reload`.
 */
import { setServerDisabled } from "@pi-mcp-adapter/config";
import { type AdapterSubcommand, oneServer } from "./adapter-command.js";
import { hostProjectTrust } from "./project-trust-bridge.js";

function toggle(verb: "disable" | "enable"): AdapterSubcommand {
  return {
    name: verb,
    args: "<server>",
    summary: `${verb} a server in this project (.pi/mcp-adapter.json)`,
    run: async (words, ctx) => {
      const server = oneServer(words, `/mcp-adapter ${verb} <server>`, ctx);
      if (!server) return;
      const file = await setServerDisabled({
        cwd: ctx.cwd,
        server,
        disabled: verb === "disable",
        trusted: hostProjectTrust(ctx),
      });
      ctx.ui.notify(`MCP server "${server}" ${verb}d in ${file}. Run /reload to apply.`, "info");
    },
  };
}

export const serverToggleSubcommands: readonly AdapterSubcommand[] = [toggle("disable"), toggle("enable")];
