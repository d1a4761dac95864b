/**
 * `/mcp-adapter disable <server>` and `/mcp-adapter enable <server>`: record
 * only the `disabled` field in the project's `.pi/mcp-adapter.json` (never in
 * an untrusted project), then apply it to the running session at once.
 */

import { hostProjectTrust } from "../host/project-trust-bridge.js";
import type { RuntimeFor } from "../host/runtime-loading.js";
import { type AdapterSubcommand, oneServer } from "./adapter-command.js";

function toggle(verb: "disable" | "enable", runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: verb,
    args: "<server>",
    summary: `${verb} a server in this project (.pi/mcp-adapter.json)`,
    run: async (words, ctx) => {
      const server = oneServer(words, `/mcp-adapter ${verb} <server>`, ctx);
      if (!server) return;
      // Config's writer loads when the command runs, not with the extension.
      const { setServerDisabled } = await import("@pi-mcp-adapter/config/setup");
      const file = await setServerDisabled({
        cwd: ctx.cwd,
        server,
        disabled: verb === "disable",
        trusted: hostProjectTrust(ctx),
      });
      const runtime = await runtimeFor(ctx);
      await runtime.reload();
      const state = runtime.listings.summaries().find((s) => s.name === server)?.state;
      // An inline SDK config or a user-level `disabled` can outrank the project file.
      const applied = (state === "disabled") === (verb === "disable");
      ctx.ui.notify(
        applied
          ? `MCP server "${server}" ${verb}d in ${file}; applied to this session.`
          : `MCP server "${server}" ${verb}d in ${file}, but another config source decides it in this session (now: ${state ?? "not configured"}).`,
        applied ? "info" : "warning",
      );
    },
  };
}

export function serverToggleSubcommands(runtimeFor: RuntimeFor): AdapterSubcommand[] {
  return [toggle("disable", runtimeFor), toggle("enable", runtimeFor)];
}
