/**
 * `auth <server>` and `logout <server>`: OAuth from a shell. `auth` prints
 * the authorization URL (and opens it where a browser exists), then waits
 * for the browser's callback, or for the address the browser ended on pasted
 * on stdin (a remote machine, where the localhost callback cannot reach this
 * process).
 */
import { createInterface } from "node:readline";
import type { OAuthLogins } from "@pi-mcp-adapter/oauth";
import { browserAvailable, openInBrowser } from "@pi-mcp-adapter/ui";
import type { CliContext, CliOutput } from "./cli-context.js";
import { CliError } from "./cli-error.js";

async function loginsOf(ctx: CliContext): Promise<OAuthLogins> {
  const runtime = await ctx.runtime();
  if (!runtime.oauth) {
    throw new CliError(
      "auth_unavailable",
      "OAuth is not available (see: pi-mcp-adapter status for the config problem)",
    );
  }
  return runtime.oauth.logins();
}

function oneServer(words: string[], command: string): string {
  if (words.length !== 1 || !words[0])
    throw new CliError("cli_usage", `usage: pi-mcp-adapter ${command} <server>`);
  return words[0];
}

export async function authCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const server = oneServer(words, "auth");
  const logins = await loginsOf(ctx);
  const started = await logins.start(server);
  if (started.status === "authorized") {
    return { text: `"${server}" is already authorized.`, json: { server, status: "authorized" } };
  }
  process.stderr.write(
    `Open this URL to authorize "${server}":\n${started.authorizationUrl}\n` +
      "Waiting for the browser… (on a remote machine, paste the address the browser ends on and press Enter)\n",
  );
  // Where a browser exists, the page opens by itself; the URL above stays the fallback.
  if (browserAvailable()) openInBrowser(started.authorizationUrl).catch(() => {});
  const input = createInterface({ input: process.stdin, terminal: false });
  try {
    const pasted = new Promise<void>((resolve, reject) => {
      input.on("line", (line) => {
        if (!line.trim()) return;
        logins.complete(server, { redirectUrl: line.trim() }).then(resolve, reject);
      });
    });
    await Promise.race([started.done, pasted]);
  } finally {
    input.close();
    process.stdin.destroy();
  }
  return { text: `Authorized "${server}".`, json: { server, status: "authorized" } };
}

export async function logoutCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const server = oneServer(words, "logout");
  const result = await (await loginsOf(ctx)).logout(server);
  const revocation =
    result.revocation === "revoked" ? "the server revoked the token" : `revocation: ${result.revocation}`;
  return {
    text: result.deleted
      ? `Logged out of "${server}": local credentials deleted (${revocation}).`
      : `No stored credentials for "${server}".`,
    json: { server, deleted: result.deleted, revocation: result.revocation },
  };
}
