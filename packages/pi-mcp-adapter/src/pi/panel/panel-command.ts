/**
 * `/mcp-adapter panel`, also what a bare `/mcp-adapter` runs: the
 * interactive panel where Pi can draw it, and the text status where it
 * cannot (RPC and print modes).
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import type { AdapterSubcommand } from "../commands/adapter-command.js";
import { hostProjectTrust } from "../host/project-trust-bridge.js";

export interface PanelSubcommandOptions {
  runtimeFor(ctx: ExtensionContext): Promise<AdapterRuntime>;
  /** The `/mcp-auth` login for one server (the panel's ctrl+a). */
  login(server: string, ctx: ExtensionContext): Promise<void>;
  /** `/mcp-adapter setup`, which `s` in the panel opens. */
  setup: AdapterSubcommand;
  /** `/mcp-adapter status`, the fallback where the panel is not drawn. */
  status: AdapterSubcommand;
  /** The host's environment: a save to the user file goes to its agent dir (default this process's). */
  environment?: AdapterEnvironment;
}

export function panelSubcommand(options: PanelSubcommandOptions): AdapterSubcommand {
  return {
    name: "panel",
    args: "",
    summary: "interactive panel: servers, tools, direct/proxy, enable/disable, reconnect, login",
    run: async (words, ctx) => {
      const runtime = await options.runtimeFor(ctx);
      // The panel's code loads when it is first opened, not with the extension.
      const drawn =
        ctx.hasUI &&
        (await (
          await import("./panel.js")
        ).openPanel(ctx, {
          runtime,
          trusted: hostProjectTrust(ctx),
          agentDir: options.environment?.agentDir,
          login: options.login,
          // `s` in the panel opens /mcp-adapter setup.
          setup: (c) => options.setup.run([], c),
        }));
      if (!drawn) await options.status.run(words, ctx);
    },
  };
}
