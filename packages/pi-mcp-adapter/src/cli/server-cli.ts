/**
 * `add`, `remove` and `get`: one server at a time, as other MCP clients'
 * CLIs do. `add` and `remove` write the agent dir's `mcp-adapter.json`
 * (or, with `--project`, the project's `.mcp.json`) through config's
 * locked, atomic writer, changing nothing else in the file; `get` shows a
 * definition with its secrets masked. Nothing starts and no `!command` runs.
 */
import {
  ADMIT_ALL_PROJECT_SERVERS,
  ConfigError,
  loadConfig,
  maskServerDefinition,
} from "@pi-mcp-adapter/config";
import {
  addServerRequest,
  addServerToFile,
  removeServerFromFile,
  serverConfigFile,
} from "@pi-mcp-adapter/config/setup";
import type { CliContext, CliOutput } from "./cli-context.js";
import { CliError } from "./cli-error.js";

export async function addCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const { options } = ctx;
  const names = words.slice(0, words.length - options.commandLine.length);
  let request: ReturnType<typeof addServerRequest>;
  try {
    request = addServerRequest(options.addFlags, names, options.commandLine);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError("cli_usage", error.message, { cause: error });
    throw error;
  }
  const file = serverConfigFile(request.scope, options.cwd, ctx.environment);
  const result = await addServerToFile(file, request.name, request.entry, { force: request.force });
  const lines = [
    result.replaced ? `Replaced "${request.name}" in ${file}.` : `Added "${request.name}" to ${file}.`,
  ];
  if (request.scope === "project") {
    lines.push(
      `It is a project server: approve it with \`pi-mcp-adapter trust ${request.name}\` (Pi asks on its own) before it starts.`,
    );
  }
  return {
    text: lines.join("\n"),
    json: { name: request.name, file, scope: request.scope, replaced: result.replaced },
  };
}

export async function removeCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const name = oneName(words, "remove <name> [--project]");
  const file = serverConfigFile(ctx.options.project ? "project" : "user", ctx.options.cwd, ctx.environment);
  try {
    await removeServerFromFile(file, name);
  } catch (error) {
    if (!(error instanceof ConfigError) || error.code !== "server_not_found") throw error;
    const elsewhere = (await readAll(ctx)).servers.find((s) => s.name === name);
    throw new ConfigError(
      "server_not_found",
      elsewhere
        ? `${error.message}; it is defined in ${elsewhere.source.file} (${elsewhere.source.key}) — remove it there`
        : `${error.message}, and no config file defines one`,
    );
  }
  return { text: `Removed "${name}" from ${file}.`, json: { name, file } };
}

export async function getCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const name = oneName(words, "get <name>");
  const config = await readAll(ctx);
  const server = config.servers.find((s) => s.name === name);
  if (!server) {
    const known = config.servers.map((s) => s.name).sort();
    throw new ConfigError(
      "server_not_found",
      `No server named "${name}" is configured${known.length ? ` (configured: ${known.join(", ")})` : ""}`,
    );
  }
  const pending = (await ctx.pendingProjectServers()).some((p) => p.name === name);
  const definition = maskServerDefinition(server);
  const lines = [`${name}: ${server.transport}, from ${server.source.file} (${server.source.key})`];
  if (server.layers.length > 1) {
    lines.push(
      `  merged with: ${server.layers
        .filter((l) => l !== server.source)
        .map((l) => l.file)
        .join(", ")}`,
    );
  }
  if (pending) lines.push(`  project server awaiting approval: pi-mcp-adapter trust ${name}`);
  lines.push(JSON.stringify(definition, null, 2));
  return {
    text: lines.join("\n"),
    json: { name, source: server.source, scope: server.scope, pendingApproval: pending, definition },
  };
}

/** Every configured server, project ones included whether approved or not (reading a definition starts nothing). */
function readAll(ctx: CliContext) {
  return loadConfig({
    cwd: ctx.options.cwd,
    configPath: ctx.options.config,
    trust: ADMIT_ALL_PROJECT_SERVERS,
    environment: ctx.environment,
  });
}

function oneName(words: string[], usage: string): string {
  const [name, ...stray] = words;
  if (!name || stray.length) throw new CliError("cli_usage", `Usage: pi-mcp-adapter ${usage}`);
  return name;
}
