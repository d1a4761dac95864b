/**
 * The Pi side of OAuth: `/mcp-auth [server]` (reconnecting the server after
 * a login), `/mcp-adapter logout <server>`, and how warnings and logins
 * started by `autoAuth` reach the user.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describeError } from "@pi-mcp-adapter/core";
import type { OAuthLogins } from "@pi-mcp-adapter/oauth";
import type { AdapterRuntime, RuntimeOAuthHooks } from "@pi-mcp-adapter/runtime";
import { type AdapterSubcommand, oneServer, type RuntimeFor } from "./adapter-command.js";
import { type McpAuthCommandOptions, registerMcpAuthCommand, runMcpAuth } from "./mcp-auth-command.js";

async function loginsOf(runtime: AdapterRuntime): Promise<OAuthLogins> {
  if (!runtime.oauth) {
    throw new Error("OAuth is not available in this session (run /mcp-adapter to see the config problem)");
  }
  return runtime.oauth.logins;
}

/** Registers `/mcp-auth`; returns its login flow for one server (the panel starts it with ctrl+a). */
export function registerOAuthCommands(
  pi: ExtensionAPI,
  runtimeFor: RuntimeFor,
): (server: string, ctx: ExtensionContext) => Promise<void> {
  const options: McpAuthCommandOptions = {
    logins: async (ctx) => loginsOf(await runtimeFor(ctx)),
    serverNames: async (ctx) => (await runtimeFor(ctx)).oauth?.serverNames() ?? [],
    // The connection that failed with "needs auth" is replaced by one using the new token.
    onAuthorized: async (server, ctx) => {
      try {
        await (await runtimeFor(ctx)).reconnect(server);
      } catch (error) {
        ctx.ui.notify(`Logged in, but "${server}" did not reconnect: ${describeError(error)}`, "warning");
      }
    },
  };
  registerMcpAuthCommand(pi, options);
  return async (server, ctx) => {
    try {
      await runMcpAuth(server, ctx, options);
    } catch (error) {
      ctx.ui.notify(`OAuth: ${describeError(error)}`, "error");
    }
  };
}

/** `/mcp-adapter logout <server>`: deletes the stored credentials, then tries revocation. */
export function logoutSubcommand(runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: "logout",
    args: "<server>",
    summary: "delete a server's OAuth credentials and revoke them",
    run: async (words, ctx) => {
      const server = oneServer(words, "/mcp-adapter logout <server>", ctx);
      if (!server) return;
      try {
        const result = await (await loginsOf(await runtimeFor(ctx))).logout(server);
        const revocation =
          result.revocation === "revoked"
            ? "the server revoked the token"
            : `revocation: ${result.revocation}`;
        ctx.ui.notify(
          result.deleted
            ? `Logged out of "${server}": local credentials deleted (${revocation})`
            : `No stored credentials for "${server}"`,
          "info",
        );
      } catch (error) {
        ctx.ui.notify(`OAuth: ${describeError(error)}`, "error");
      }
    },
  };
}

/** Where a runtime's OAuth warnings and `autoAuth` logins are shown. */
export function oauthHooksFor(ctx: ExtensionContext): RuntimeOAuthHooks {
  return {
    warn: (message) => ctx.ui.notify(`OAuth: ${message}`, "warning"),
    onAutoAuth: (result) => {
      if (result.status !== "pending") return;
      ctx.ui.notify(
        `"${result.server}" needs a login. Open this URL to authorize it:\n${result.authorizationUrl}\n` +
          `(on a remote machine, run /mcp-auth ${result.server} to paste the address the browser ends on)`,
        "info",
      );
    },
  };
}
