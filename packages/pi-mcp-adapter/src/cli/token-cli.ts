/**
 * `token set|show|clear <server>`: the static bearer token a server with
 * `bearerTokenStore: true` sends, kept in the OAuth credential store
 * (`settings.oauthCredentialStore`) and bound to the server's URL. `set`
 * reads the token from a masked prompt on a terminal or from piped stdin —
 * never from the command line, where shell history and `ps` would keep it.
 * Nothing here prints the token: `show` prints a masked form.
 */
import { interpolate } from "@pi-mcp-adapter/config";
import {
  clearStoredBearerToken,
  storeBearerToken,
  storedBearerTokenStatus,
} from "@pi-mcp-adapter/oauth/store";
import type { CliContext, CliOutput } from "./cli-context.js";
import { CliError } from "./cli-error.js";

const USAGE = "usage: pi-mcp-adapter token set|show|clear <server>  (set reads the token from stdin)";

export async function tokenCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const [action, server, ...rest] = words;
  if (action === "set" && rest.length > 0) {
    throw new CliError(
      "cli_usage",
      "token set reads the token from stdin or a masked prompt, never from the command line",
    );
  }
  if (!server || rest.length > 0 || !["set", "show", "clear"].includes(action ?? "")) {
    throw new CliError("cli_usage", USAGE);
  }
  const runtime = await ctx.runtime();
  const store = runtime.oauth?.store;
  if (!store) {
    throw new CliError(
      "auth_unavailable",
      "The credential store is not available (see: pi-mcp-adapter status for the config problem)",
    );
  }
  if (action === "clear") {
    const deleted = await clearStoredBearerToken(store, server);
    return {
      text: deleted ? `Deleted the stored token for "${server}".` : `No token stored for "${server}".`,
      json: { server, deleted },
    };
  }
  if (action === "show") {
    const status = await storedBearerTokenStatus(store, server);
    const text = status.url
      ? `"${server}": token ${status.masked} stored for ${status.url} (${store.kind} store)`
      : `No token stored for "${server}" (${store.kind} store).`;
    return { text, json: { ...status, stored: status.url !== undefined, store: store.kind } };
  }
  const definition = runtime.servers.definition(server);
  if (!definition && (await ctx.pendingProjectServers()).some((p) => p.name === server)) {
    throw new CliError(
      "cli_usage",
      `"${server}" is a project server awaiting approval: run "pi-mcp-adapter trust ${server}" first`,
    );
  }
  const url = serverUrl(definition, server);
  const token = process.stdin.isTTY ? await readMasked(`Token for "${server}": `) : await readAll();
  await storeBearerToken(store, server, url, token);
  return {
    text: `Stored the token for "${server}" (${store.kind} store), bound to ${url}.`,
    json: { server, stored: true, url, store: store.kind },
  };
}

/** The URL the token binds to: the configured one with `${VAR}` expanded as a connect would. */
function serverUrl(definition: { url?: string } | undefined, server: string): string {
  if (!definition) throw new CliError("unknown_server", `No MCP server named "${server}" is configured`);
  if (!definition.url) {
    throw new CliError("cli_usage", `"${server}" is not an HTTP server; a bearer token needs a url`);
  }
  const expanded = interpolate(definition.url, process.env);
  if ("missing" in expanded) {
    throw new CliError(
      "cli_usage",
      `The url of "${server}" uses \${${expanded.missing}}, which is not set in the environment`,
    );
  }
  return expanded.value;
}

async function readAll(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads one line with echo off, showing `*` per character; Ctrl-C cancels. */
function readMasked(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.resume();
  let value = "";
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n") return finish();
        if (char === "\u0003") return finish(new CliError("cli_usage", "cancelled; nothing stored"));
        if (char === "\u007f" || char === "\b") {
          if (value) process.stderr.write("\b \b");
          value = value.slice(0, -1);
        } else if (char >= " ") {
          value += char;
          process.stderr.write("*");
        }
      }
    };
    input.on("data", onData);
  });
}
