/**
 * `mcp({ action: "install", url, server? })`: the model asks to add a remote
 * MCP server. Nothing is written until the user agrees in a dialog that shows
 * the exact entry and the file it goes into; a session without a dialog (`-p`)
 * leaves the refusal to the runtime, which tells the model what the user can
 * run instead. The entry goes through config's `add` writer (validated,
 * comments and modes kept, never replacing a server of that name) into the
 * user's mcp-adapter.json, and the session reloads to use it at once.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { ConfigError } from "@pi-mcp-adapter/config";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import type { AdapterRuntime, ProxyOutcome } from "@pi-mcp-adapter/runtime";
import type { ProxyParams } from "@pi-mcp-adapter/runtime/startup";

type InstallOutcome = Pick<ProxyOutcome, "content" | "details">;

/** A server name from the URL's host: `https://mcp.linear.app/mcp` → `linear`. */
export function serverNameFromUrl(url: URL): string {
  // A loopback or bare address says nothing about the server: name it by where it runs.
  if (/^(localhost|[\d.]+|\[[\da-f:]+\])$/i.test(url.hostname))
    return url.port ? `local-${url.port}` : "local";
  const labels = url.hostname
    .split(".")
    .filter((l) => !/^(mcp|api|www|server|app|com|dev|io|ai|net|org)$/.test(l));
  const name = (labels.at(-1) ?? url.hostname).toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
  return name.replace(/^-+|-+$/g, "") || "server";
}

export async function installServer(
  runtime: AdapterRuntime,
  params: ProxyParams,
  ctx: ExtensionContext,
  environment: AdapterEnvironment,
): Promise<InstallOutcome> {
  const url = parseUrl(params.url);
  const name = params.server?.trim() || serverNameFromUrl(url);
  if (runtime.listings.summaries().some((s) => s.name === name)) {
    throw new ConfigError(
      "server_exists",
      `A server named "${name}" is already configured; nothing was installed (pass another name in "server")`,
    );
  }
  // Config's writers load when a server is installed, not with the extension.
  const { addServerRequest, addServerToFile, serverConfigFile } = await import(
    "@pi-mcp-adapter/config/setup"
  );
  const request = addServerRequest({ url: url.href }, [name], []);
  const file = serverConfigFile("user", ctx.cwd, environment);
  const entry = JSON.stringify({ [name]: request.entry }, null, 2);
  const agreed = await ctx.ui.confirm(
    "Install MCP server?",
    `The agent asks to add this server to ${file}:\n\n${entry}\n\nIt connects when first used. Add it?`,
  );
  if (!agreed) {
    return {
      content: [{ type: "text", text: `The user declined: "${name}" (${url.href}) was not installed.` }],
      details: { mode: "install", server: name, file, installed: false },
    };
  }
  await addServerToFile(file, name, request.entry);
  await runtime.reload();
  return {
    content: [
      {
        type: "text",
        text: `Installed MCP server "${name}" (${url.href}) in ${file}. Find its tools with mcp({search: "...", server: "${name}"}).`,
      },
    ],
    details: { mode: "install", server: name, file, installed: true },
  };
}

function parseUrl(raw: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(raw ?? "");
  } catch {
    throw new ConfigError(
      "invalid_arguments",
      `install needs "url": the server's MCP endpoint (https://…); got ${JSON.stringify(String(raw ?? "")).slice(0, 120)}`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigError("invalid_arguments", `install takes an http(s) URL, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ConfigError(
      "invalid_arguments",
      "install refuses a URL with a user name or password in it; the user can add credentials with /mcp-adapter edit",
    );
  }
  return url;
}
