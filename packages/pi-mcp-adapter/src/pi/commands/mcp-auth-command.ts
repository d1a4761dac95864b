/**
 * `/mcp-auth [server]`: shows the authorization URL (and opens it in the
 * browser where one exists), then finishes on
 * whichever comes first — the browser reaching the loopback callback, or the
 * user pasting the callback address (or code) into the input dialog, which
 * is how remote and headless sessions complete the login.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describeError } from "@pi-mcp-adapter/core";
import type { OAuthLogins } from "@pi-mcp-adapter/oauth";

export interface McpAuthCommandOptions {
  logins: (ctx: ExtensionContext) => Promise<OAuthLogins>;
  /** Names offered when `/mcp-auth` is run without one. */
  serverNames: (ctx: ExtensionContext) => Promise<string[]>;
  /** Opens the authorization URL in the user's browser where one exists. */
  openBrowser?: (url: string) => void;
  /** Called after a successful login, e.g. to reconnect the server. */
  onAuthorized?: (server: string, ctx: ExtensionContext) => Promise<void>;
}

export function registerMcpAuthCommand(pi: ExtensionAPI, options: McpAuthCommandOptions): void {
  pi.registerCommand("mcp-auth", {
    description: "MCP adapter: log in to an OAuth-protected MCP server",
    handler: async (args, ctx) => {
      try {
        await runMcpAuth(args.trim(), ctx, options);
      } catch (error) {
        ctx.ui.notify(`OAuth: ${describeError(error)}`, "error");
      }
    },
  });
}

/** The `/mcp-auth` flow for one server (or, with `""`, a chosen one); also started from the panel. */
export async function runMcpAuth(
  requested: string,
  ctx: ExtensionContext,
  options: McpAuthCommandOptions,
): Promise<void> {
  let server = requested;
  if (!server) {
    const names = await options.serverNames(ctx);
    if (!ctx.hasUI || names.length === 0) {
      ctx.ui.notify(
        names.length ? `Usage: /mcp-auth <${names.join("|")}>` : "No HTTP MCP servers are configured",
        "warning",
      );
      return;
    }
    const chosen = await ctx.ui.select("Log in to which MCP server?", names);
    if (!chosen) return;
    server = chosen;
  }
  const logins = await options.logins(ctx);
  const started = await logins.start(server);
  if (started.status === "authorized") {
    ctx.ui.notify(`"${server}" is already authorized`, "info");
    await options.onAuthorized?.(server, ctx);
    return;
  }
  ctx.ui.notify(`Open this URL to authorize "${server}":\n${started.authorizationUrl}`, "info");
  options.openBrowser?.(started.authorizationUrl);
  if (ctx.hasUI) {
    const dismiss = new AbortController();
    started.done.then(
      () => dismiss.abort(),
      () => dismiss.abort(),
    );
    const pasted = await ctx.ui.input(
      `After approving, paste the address the browser ends on (or the code) for "${server}"`,
      `${started.redirectUrl}?code=…&state=…`,
      { signal: dismiss.signal },
    );
    if (pasted?.trim()) {
      await logins.complete(server, { redirectUrl: pasted.trim() });
    } else if (!dismiss.signal.aborted) {
      await logins.cancel(server);
      ctx.ui.notify(`Login to "${server}" cancelled`, "warning");
      return;
    }
  }
  await started.done;
  ctx.ui.notify(`Logged in to "${server}"`, "info");
  await options.onAuthorized?.(server, ctx);
}
