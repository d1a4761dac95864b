#!/usr/bin/env node
/**
 * `pi-mcp-adapter`: the adapter's operations from a shell, without Pi. The
 * commands are the rows of `CLI_COMMANDS`; exit codes are `EXIT` (cli-error.ts),
 * and every failure is told through `reportFailure`.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { ADD_SERVER_FLAGS } from "@pi-mcp-adapter/config/setup";
import { type AdapterEnvironment, describeError, processEnvironment } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import { runProxyRequest } from "@pi-mcp-adapter/runtime";
import { CliContext, type CliOutput } from "./cli-context.js";
import { CliError, EXIT, type ExitCode, reportFailure } from "./cli-error.js";
import { awaitingApprovalNote } from "./cli-trust.js";
import { quietWhenReaderLeaves } from "./closed-reader.js";
import { type CliCommand, cliUsage, commandUsage, findCliCommand } from "./commands.js";
import { callResultOutput } from "./connect-cli.js";

const OPTIONS = {
  config: { type: "string" },
  cwd: { type: "string" },
  server: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  "approve-project": { type: "boolean" },
  "discover-host-configs": { type: "boolean" },
  list: { type: "boolean" },
  adopt: { type: "string", multiple: true },
  add: { type: "string", multiple: true },
  "create-mcp-json": { type: "boolean" },
  "copy-pi-servers": { type: "boolean" },
  yes: { type: "boolean", short: "y" },
  // `add`: the same flags `/mcp-adapter add` takes (config's grammar).
  ...ADD_SERVER_FLAGS,
} as const;

const GLOBAL = new Set(["config", "cwd", "server", "json", "help", "approve-project"]);

export async function main(argv: string[], environment: AdapterEnvironment): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    const usage = new CliError("cli_usage", describeError(error), { cause: error });
    return reportFailure(usage, { json: argv.includes("--json"), usage: cliUsage() });
  }
  const { values, positionals, tokens } = parsed;
  // Words after `--` (for `add`, the server's command line) are taken as they are.
  const dash = tokens.findIndex((t) => t.kind === "option-terminator");
  const commandLine =
    dash < 0 ? [] : tokens.slice(dash + 1).flatMap((t) => (t.kind === "positional" ? [t.value] : []));
  const [name, ...rest] = positionals;
  const json = values.json === true;
  if (values.help && name === undefined) {
    process.stdout.write(`${cliUsage()}\n`);
    return EXIT.ok;
  }
  const command = findCliCommand(name ?? "status");
  if (!command) {
    const unknown = new CliError("cli_usage", `Unknown command "${name}".`);
    return reportFailure(unknown, { json, usage: cliUsage() });
  }
  if (values.help) {
    process.stdout.write(`${commandUsage(command)}\n`);
    return EXIT.ok;
  }
  const allowed = new Set([...GLOBAL, ...(command.flags ?? []).map(([flag]) => flag)]);
  const stray = Object.keys(values).filter((key) => !allowed.has(key));
  if (stray.length) {
    const wrong = new CliError("cli_usage", `"${command.name}" does not take --${stray.join(", --")}.`);
    return reportFailure(wrong, { json, usage: commandUsage(command) });
  }
  const ctx = new CliContext(
    {
      cwd: path.resolve(values.cwd ?? process.cwd()),
      config: values.config,
      server: values.server,
      json,
      approveProject: values["approve-project"] === true,
      discoverHostConfigs: values["discover-host-configs"] === true,
      list: values.list === true,
      adopt: values.adopt ?? [],
      add: values.add ?? [],
      createMcpJson: values["create-mcp-json"] === true,
      copyPiServers: values["copy-pi-servers"] === true,
      project: values.project === true,
      yes: values.yes === true,
      addFlags: {
        project: values.project,
        force: values.force,
        env: values.env,
        header: values.header,
        url: values.url,
        transport: values.transport,
      },
      commandLine,
    },
    environment,
  );
  let code: ExitCode;
  try {
    const output = await runCommand(command, ctx, rest);
    // Text carries server names, descriptions and errors: no escape sequence of theirs reaches the terminal.
    // (JSON escapes control characters itself.)
    process.stdout.write(
      json
        ? `${JSON.stringify(output.json, null, 2)}\n`
        : output.text
          ? `${stripControlSequences(output.text)}\n`
          : "",
    );
    code = output.exitCode ?? EXIT.ok;
  } catch (error) {
    code = reportFailure(error, { json });
  }
  try {
    // Whatever the command did, servers it could not start for want of approval are named, with the way to approve them.
    if (command.startsServers && code !== EXIT.usage) {
      const pending = await ctx.pendingProjectServers();
      if (pending.length) {
        process.stderr.write(`${awaitingApprovalNote(pending)}\n`);
        code = EXIT.approval;
      }
    }
    return code;
  } finally {
    await ctx.close();
  }
}

async function runCommand(command: CliCommand, ctx: CliContext, words: string[]): Promise<CliOutput> {
  if (command.run) return command.run(ctx, words);
  const request = command.request?.(words, ctx.options.server) ?? {};
  return callResultOutput(await runProxyRequest(await ctx.runtime(), request));
}

function parse(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS, tokens: true });
}

quietWhenReaderLeaves(process.stdout);
quietWhenReaderLeaves(process.stderr);
// The agent dir, home, platform and clock, read once here and handed to every command.
process.exitCode = await main(process.argv.slice(2), processEnvironment());
