/**
 * The Pi side of OAuth: `/mcp-auth [server]` (reconnecting the server after
 * a login), `/mcp-adapter logout <server>`, and how warnings, login pages
 * and logins started by `autoAuth` or `auth-start` reach the user and the agent.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describeError } from "@pi-mcp-adapter/core";
import type { OAuthLogins } from "@pi-mcp-adapter/oauth";
import type { AdapterRuntime, RuntimeOAuthHooks } from "@pi-mcp-adapter/runtime";
import { browserOpener } from "../host/browser-opener.js";
import type { RuntimeFor } from "../host/runtime-loading.js";
import { type AdapterSubcommand, oneServer } from "./adapter-command.js";
import { type McpAuthCommandOptions, registerMcpAuthCommand, runMcpAuth } from "./mcp-auth-command.js";

async function loginsOf(runtime: AdapterRuntime): Promise<OAuthLogins> {
  if (!runtime.oauth) {
    throw new Error("OAuth is not available in this session (run /mcp-adapter to see the config problem)");
  }
  return runtime.oauth.logins();
}

/** Registers `/mcp-auth`; returns its login flow for one server (the panel starts it with ctrl+a). */
export function registerOAuthCommands(
  pi: ExtensionAPI,
  runtimeFor: RuntimeFor,
): (server: string, ctx: ExtensionContext) => Promise<void> {
  const options: McpAuthCommandOptions = {
    logins: async (ctx) => loginsOf(await runtimeFor(ctx)),
    serverNames: async (ctx) => (await runtimeFor(ctx)).oauth?.serverNames() ?? [],
    openBrowser: openLoginPage,
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

/** The custom message that tells the agent a login finished in the background. */
export const LOGIN_MESSAGE_TYPE = "pi-mcp-adapter:login";

/**
 * Opens `url` in the user's browser where one exists (a desktop, or Linux with a display);
 * otherwise the URL shown is all there is. A browser that fails to start is not an error.
 */
export function openLoginPage(url: string): void {
  browserOpener()?.(url).catch(() => {});
}

/**
 * Where a runtime's OAuth warnings and `autoAuth` logins are shown; a login
 * page opens in the browser, and a login that finished by itself (the browser
 * reached the callback) is told to the agent in a message that starts a turn.
 */
export function oauthHooksFor(pi: ExtensionAPI, ctx: ExtensionContext): RuntimeOAuthHooks {
  return {
    openBrowser: openLoginPage,
    onBackgroundLogin: (server) =>
      pi.sendMessage(
        {
          customType: LOGIN_MESSAGE_TYPE,
          content: `Logged in to MCP server "${server}": its tools can be called now.`,
          display: true,
        },
        { triggerTurn: true, deliverAs: "followUp" },
      ),
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
