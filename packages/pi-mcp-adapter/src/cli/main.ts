#!/usr/bin/env node
/**
 * `pi-mcp-adapter`: the adapter's operations from a shell, without Pi. The
 * commands are the rows of `CLI_COMMANDS`.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { describeError } from "@pi-mcp-adapter/core";
import { createRuntime, headlessHost, runProxyRequest } from "@pi-mcp-adapter/runtime";
import { PACKAGE_VERSION } from "../package-version.js";
import { cliUsage, findCliCommand } from "./commands.js";

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n\n${cliUsage()}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${cliUsage()}\n`);
    return 0;
  }
  const [name = "status", ...rest] = positionals;
  const command = findCliCommand(name);
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${cliUsage()}\n`);
    return 2;
  }
  const cwd = path.resolve(values.cwd ?? process.cwd());
  // No UI: calls needing approval fail closed, and no interactive capability is offered to servers.
  const host = headlessHost({ notify: (message, level) => process.stderr.write(`${level}: ${message}\n`) });
  const runtime = await createRuntime({
    cwd,
    configPath: values.config,
    host,
    client: { name: "pi-mcp-adapter", version: PACKAGE_VERSION },
    // One command and exit: a UI tool returns its inline result, no window outlives the process.
    ui: { viewer: "none" },
  });
  try {
    const outcome = command.run
      ? await command.run(runtime, rest, values.server, { json: values.json === true })
      : await runProxyRequest(runtime, command.request?.(rest, values.server) ?? {});
    for (const block of outcome.content) {
      process.stdout.write(block.type === "text" ? `${block.text}\n` : `[image ${block.mimeType}]\n`);
    }
    return outcome.isError ? 1 : 0;
  } catch (error) {
    process.stderr.write(`error: ${describeError(error)}\n`);
    return 1;
  } finally {
    await runtime.shutdown();
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: "string" },
      cwd: { type: "string" },
      server: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

process.exitCode = await main(process.argv.slice(2));
